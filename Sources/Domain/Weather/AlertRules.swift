import LodestoneCore

/// Alerts a person in the field acts on: pressure high or low, a rapid fall (a storm on its
/// way), an altitude target reached, temperature high or low.
///
/// Each rule has a threshold, a hysteresis and a cooldown: it fires when the value crosses the
/// threshold, and cannot fire again until the value has come back past the threshold by the
/// hysteresis *and* the cooldown has passed, so a value hovering on the line gives one alert,
/// not a hundred.
public struct AlertRules: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case pressureHigh, pressureLow, rapidFall, altitudeReached, temperatureHigh, temperatureLow

        /// What the rule watches and in which direction it fires.
        var rises: Bool { self == .pressureHigh || self == .altitudeReached || self == .temperatureHigh }

        /// The thresholds that mean something, in `unit`: sea-level pressures ever recorded,
        /// falls (a rise is not a fall), heights people reach, air temperatures a sensor reads.
        public var thresholdRange: ClosedRange<Double> {
            switch self {
            case .pressureHigh, .pressureLow: return 850...1100
            case .rapidFall: return -20 ... -0.1
            case .altitudeReached: return -500...9000
            case .temperatureHigh, .temperatureLow: return -60...85
            }
        }

        /// The rule by its name, with its threshold: "Pressure above 1040 hPa".
        public func name(threshold: Double, _ language: Language = .en) -> String {
            let shown = self == .rapidFall ? figure(-threshold, decimals: 1) + " hPa" : figure(threshold, decimals: 1) + " " + unit
            return Words.text("alertRule", rawValue, language, shown)
        }

        public var unit: String {
            switch self {
            case .pressureHigh, .pressureLow: return "hPa"
            case .rapidFall: return "hPa/h"
            case .altitudeReached: return "m"
            case .temperatureHigh, .temperatureLow: return "°C"
            }
        }
    }

    public struct Rule: Sendable, Equatable {
        public var kind: Kind
        public var enabled: Bool
        public var threshold: Double
        public var hysteresis: Double
        /// Seconds after an alert before the rule may fire again.
        public var cooldown: Double

        public init(kind: Kind, enabled: Bool, threshold: Double, hysteresis: Double, cooldown: Double) {
            (self.kind, self.enabled, self.threshold, self.hysteresis, self.cooldown) = (kind, enabled, threshold, hysteresis, cooldown)
        }

        /// Defaults a hiker or sailor can live with; the altitude target is off until set.
        public static func standard(_ kind: Kind) -> Rule {
            switch kind {
            case .pressureHigh: return Rule(kind: kind, enabled: true, threshold: 1040, hysteresis: 1, cooldown: 3600)
            case .pressureLow: return Rule(kind: kind, enabled: true, threshold: 980, hysteresis: 1, cooldown: 3600)
            // A fall of 2 hPa an hour or more: the classic sign of a gale within hours.
            case .rapidFall: return Rule(kind: kind, enabled: true, threshold: -2, hysteresis: 0.5, cooldown: 3 * 3600)
            case .altitudeReached: return Rule(kind: kind, enabled: false, threshold: 3000, hysteresis: 10, cooldown: 600)
            case .temperatureHigh: return Rule(kind: kind, enabled: true, threshold: 35, hysteresis: 1, cooldown: 3600)
            case .temperatureLow: return Rule(kind: kind, enabled: true, threshold: 0, hysteresis: 1, cooldown: 3600)
            }
        }
    }

    /// An alert that fired.
    public struct Alert: Sendable, Equatable {
        public var kind: Kind
        public var value: Double
        public var threshold: Double
        /// UTC seconds.
        public var time: Double

        public init(kind: Kind, value: Double, threshold: Double, time: Double) {
            (self.kind, self.value, self.threshold, self.time) = (kind, value, threshold, time)
        }

        /// The rule by its name and the value now, from the table of words: "Pressure above
        /// 1040 hPa: now 1041.2 hPa".
        public var message: String { message(.en) }

        public func message(_ language: Language) -> String {
            let now =
                kind == .rapidFall
                ? Words.text("word", "perHour", language, figure(-value, decimals: 1) + " hPa")
                : figure(value, decimals: kind == .altitudeReached ? 0 : 1) + " " + kind.unit
            let line = Words.lookup("alert.now", language, [kind.name(threshold: threshold, language), now]) ?? now
            switch kind {
            case .rapidFall:
                // In the trend's own words for that rate, so the alert and the forecast beside it
                // never say two things (a threshold set gentler than the default is "deteriorating").
                let band = PressureTrend.Band(hPaPerHour: value)
                let advice = band == .fallingFast ? Words.lookup("alert.shelter", language) ?? "" : ""
                return line + ": " + Words.text("forecast", band.rawValue, language).lowercased() + advice
            default:
                return line
            }
        }
    }

    public private(set) var rules: [Rule]
    /// Per rule: armed (may fire) and when it last fired.
    private var armed: [Bool]
    private var lastFired: [Double]

    public init(rules: [Rule] = Kind.allCases.map(Rule.standard)) {
        self.rules = rules
        armed = Array(repeating: true, count: rules.count)
        lastFired = Array(repeating: -.infinity, count: rules.count)
    }

    public func rule(_ kind: Kind) -> Rule? { rules.first { $0.kind == kind } }

    /// Whether the rule may fire: true until it fires, then false until its value has come
    /// back past the threshold by the hysteresis (what a person asks of a rule: "is it set?").
    public func isArmed(_ kind: Kind) -> Bool {
        rules.firstIndex { $0.kind == kind }.map { armed[$0] } ?? false
    }

    /// When the rule last fired (UTC seconds) since the device started; nil when it has not.
    public func lastFired(_ kind: Kind) -> Double? {
        rules.firstIndex { $0.kind == kind }.flatMap { lastFired[$0].isFinite ? lastFired[$0] : nil }
    }

    /// Replaces a rule's settings; it re-arms, so a new threshold already crossed fires at once.
    public mutating func set(_ rule: Rule) {
        if let index = rules.firstIndex(where: { $0.kind == rule.kind }) {
            rules[index] = rule
            armed[index] = true
        } else {
            rules.append(rule)
            armed.append(true)
            lastFired.append(-.infinity)
        }
    }

    /// The values now (NaN when not known) at UTC `time`; returns the alerts that fire.
    public mutating func evaluate(_ values: [Kind: Double], time: Double) -> [Alert] {
        evaluate(time: time) { values[$0] ?? .nan }
    }

    /// The same, reading each rule's value from `value` (NaN when there is none): nothing is
    /// allocated unless an alert fires.
    public mutating func evaluate(time: Double, value valueOf: (Kind) -> Double) -> [Alert] {
        var fired: [Alert] = []
        for index in rules.indices where rules[index].enabled {
            let rule = rules[index]
            let value = valueOf(rule.kind)
            guard value.isFinite else { continue }
            let beyond = rule.kind.rises ? value >= rule.threshold : value <= rule.threshold
            let back = rule.kind.rises ? value < rule.threshold - rule.hysteresis : value > rule.threshold + rule.hysteresis
            if back { armed[index] = true }
            if beyond && armed[index] && time - lastFired[index] >= rule.cooldown {
                armed[index] = false
                lastFired[index] = time
                fired.append(Alert(kind: rule.kind, value: value, threshold: rule.threshold, time: time))
            }
        }
        return fired
    }
}

/// A threshold or a value as people write it: "1040", "2.5" (no ".0" on a whole number).
/// Nothing a person could read as a figure ("--") for one not measured or beyond any reading.
private func figure(_ value: Double, decimals: Int) -> String {
    guard value.isFinite, abs(value) < 1e7 else { return "--" }
    return value == value.rounded() ? DecimalText.format(value, 0) : DecimalText.format(value, decimals)
}
