import LodestoneCore

/// When to take a track point. Either a fixed interval (1..30 s of GPS time), or adaptive:
/// a point on every turn and every 50 m, and at least every 30 s, so a winding path or a fast
/// ride is drawn densely and a long straight walk or a boat on a steady course sparsely.
public struct TrackSampler: Sendable {
    public enum Mode: Sendable, Equatable {
        case every(Double)
        case adaptive

        /// "5" (seconds, 1..30) or "adaptive"; nil for anything else.
        public init?(_ text: String) {
            if text == "adaptive" { self = .adaptive; return }
            guard let seconds = DecimalNumber.parse(text), seconds >= 1, seconds <= 30 else { return nil }
            self = .every(seconds)
        }

        public var description: String {
            switch self {
            case .adaptive: return "adaptive"
            case .every(let seconds): return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            }
        }
    }

    /// Adaptive mode's limits: never closer than 1 s, never farther apart than 30 s or 50 m,
    /// and a point whenever the course has turned 15 degrees.
    public static let shortest = 1.0, longest = 30.0, spacing = 50.0, turn = 15.0
    /// Below this speed the course over ground is noise, not a turn.
    static let courseSpeed = 0.5

    public var mode: Mode
    private var last: (time: Double, latitude: Double, longitude: Double, course: Double)?

    public init(_ mode: Mode) { self.mode = mode }

    /// Whether the fix at `time` becomes a point; remembers it when it does.
    public mutating func take(time: Double, latitude: Double, longitude: Double, speed: Double, course: Double) -> Bool {
        let steady = speed.isFinite && speed >= Self.courseSpeed && course.isFinite ? course : Double.nan
        guard let last else {
            self.last = (time, latitude, longitude, steady)
            return true
        }
        let elapsed = time - last.time
        let taken: Bool
        switch mode {
        case .every(let seconds):
            taken = elapsed >= seconds
        case .adaptive:
            if elapsed < Self.shortest {
                taken = false
            } else if elapsed >= Self.longest {
                taken = true
            } else if steady.isFinite && last.course.isFinite && abs(Angle.signed(steady - last.course)) >= Self.turn {
                taken = true
            } else {
                taken =
                    Geodesy.distance(latitude1: last.latitude, longitude1: last.longitude, latitude2: latitude, longitude2: longitude)
                    >= Self.spacing
            }
        }
        if taken { self.last = (time, latitude, longitude, steady) }
        return taken
    }

    /// Forget the last point (a new recording, or a resume after a pause).
    public mutating func reset() { last = nil }
}
