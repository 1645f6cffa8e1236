import LodestoneCore
import LodestoneHAL

/// What the buzzer plays for each kind of event, chosen in the configuration's `"sounds"`
/// from a small set of patterns, with a mute, a quiet-hours window and a click at each
/// cardinal point while turning. The LED always shows the pattern: muting silences only the
/// buzzer. In quiet hours only alerts sound (a storm at night must still wake the crew).
package struct SoundSettings: Sendable, Equatable {
    /// The events that sound.
    package enum Kind: String, Sendable, CaseIterable {
        case button, longPress, alert, offCourse, level, snapshot, lock, cardinal, satellitePass, departure
    }

    /// The patterns to choose from: on, off, on... milliseconds.
    static let library: [(name: String, pattern: OutputPattern)] = [
        ("blip", OutputPattern(steps: [40])),
        ("tick", OutputPattern(steps: [15])),
        ("double", OutputPattern(steps: [40, 80, 40])),
        ("triple", OutputPattern(steps: [40, 80, 40, 80, 40])),
        ("long", OutputPattern(steps: [400])),
        ("warble", OutputPattern(steps: [120, 60, 120, 60, 120, 60, 120])),
        ("alarm", OutputPattern(steps: [300, 150, 300, 150, 300, 600], repeats: 2)),
        ("none", OutputPattern(steps: []))
    ]
    static var patternNames: String { library.map(\.name).joined(separator: ", ") }

    static func pattern(named name: String) -> OutputPattern? { library.first { $0.name == name }?.pattern }

    /// Each kind's pattern by name; the defaults are the ones the buttons have always made.
    var chosen: [Kind: String] = [
        .button: "blip", .longPress: "double", .alert: "alarm", .offCourse: "triple",
        .level: "tick", .snapshot: "double", .lock: "double", .cardinal: "tick",
        .satellitePass: "warble", .departure: "triple"
    ]
    var mute = false
    /// Local minutes of the day from and to (the window may pass midnight); nil: none.
    var quietHours: (from: Int, to: Int)?
    package var cardinalClick = false

    package static func == (a: SoundSettings, b: SoundSettings) -> Bool {
        a.chosen == b.chosen && a.mute == b.mute && a.cardinalClick == b.cardinalClick
            && a.quietHours?.from == b.quietHours?.from && a.quietHours?.to == b.quietHours?.to
    }

    package func pattern(_ kind: Kind) -> OutputPattern { Self.pattern(named: chosen[kind] ?? "none") ?? OutputPattern(steps: []) }

    /// Whether the buzzer may sound `kind` at local minute of the day `minute`.
    package func buzzes(_ kind: Kind, minute: Int) -> Bool {
        if mute { return false }
        guard let quiet = quietHours, kind != .alert else { return true }
        let inside = quiet.from <= quiet.to ? (minute >= quiet.from && minute < quiet.to) : (minute >= quiet.from || minute < quiet.to)
        return !inside
    }

    /// "22:00-07:00" as minutes; nil when it is not such a window.
    static func window(_ text: String) -> (from: Int, to: Int)? {
        let ends = text.split(separator: "-")
        guard ends.count == 2, let from = minutes(ends[0]), let to = minutes(ends[1]), from != to else { return nil }
        return (from, to)
    }

    /// A window as the configuration writes it, "22:00-07:00".
    static func windowText(_ window: (from: Int, to: Int)) -> String {
        func clock(_ minute: Int) -> String { zeroPadded(minute / 60, 2) + ":" + zeroPadded(minute % 60, 2) }
        return clock(window.from) + "-" + clock(window.to)
    }

    static func minutes(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    /// The defaults: the buttons' sounds, no mute, no quiet hours, no cardinal click.
    package init() {}
}
