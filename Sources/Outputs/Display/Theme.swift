import LodestoneReports

/// The display's colours for each theme: on a framebuffer and on a terminal.
extension Theme {
    public struct Colour: Sendable, Equatable {
        public var red: UInt8, green: UInt8, blue: UInt8
        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    public var background: Colour { Colour(0, 0, 0) }

    /// The colour of an ink on a framebuffer.
    public func colour(_ ink: Ink) -> Colour {
        switch (self, ink) {
        case (.day, .text): return Colour(255, 255, 255)
        case (.day, .dim): return Colour(140, 140, 140)
        // Amber for what the eye looks for first: the heading, the next event.
        case (.day, .accent): return Colour(255, 191, 0)
        case (.day, .warning): return Colour(255, 64, 32)
        case (.day, .good): return Colour(64, 220, 96)
        case (.night, .dim): return Colour(90, 0, 0)
        case (.night, .warning): return Colour(255, 0, 0)
        case (.night, .accent): return Colour(210, 0, 0)
        case (.night, _): return Colour(160, 0, 0)
        }
    }

    /// The ANSI SGR parameters of an ink on a terminal (night also sets a black background).
    public func sgr(_ ink: Ink) -> String {
        switch (self, ink) {
        case (.day, .text): return "0"
        case (.day, .dim): return "0;90"
        case (.day, .accent): return "0;1;33"
        case (.day, .warning): return "0;1;31"
        case (.day, .good): return "0;32"
        case (.night, .dim): return "0;2;31;40"
        case (.night, .accent), (.night, .warning): return "0;1;31;40"
        case (.night, _): return "0;31;40"
        }
    }
}
