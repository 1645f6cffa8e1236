import LodestoneCore

/// How far to trust the position, 0..100, and what a person can do about it.
public enum FixQuality {
    public enum Warning: String, Sendable, Equatable, CaseIterable {
        case fewSatellites, highDOP, noFix, frozen
        /// What to do about it, from the table of words ("few satellites: move away from ...").
        public func advice(_ language: Language = .en) -> String { Words.text("fixAdvice", rawValue, language) }
    }

    /// - Parameters: satellites used, HDOP, the estimated one-sigma error (m), the fix's age (s),
    ///   whether it is 3D, whether the receiver has repeated an identical fix for a while, and
    ///   the age (s) from which there is no fix: about three missed fixes, so a person hears of
    ///   a lost fix within seconds while one late sentence is no alarm.
    ///   `previous`: the warnings in force, for their hysteresis: few satellites starts under 5
    ///   and ends at 6, a high DOP starts over 4 and ends at 3 or under.
    public static func assess(
        satellites: Int, hdop: Double, error: Double, age: Double, threeD: Bool, frozen: Bool,
        noFixAfter: Double = 3, previous: [Warning] = []
    ) -> (confidence: Int, warnings: [Warning]) {
        var warnings: [Warning] = []
        guard age.isFinite, age < noFixAfter else { return (0, [.noFix]) }
        if satellites < (previous.contains(.fewSatellites) ? 6 : 5) { warnings.append(.fewSatellites) }
        if hdop.isFinite && hdop > (previous.contains(.highDOP) ? 3 : 4) { warnings.append(.highDOP) }
        if frozen { warnings.append(.frozen) }
        // Each factor scales the score down; none can raise it above what the others allow.
        var score = 100.0
        score *= min(1, Double(max(satellites, 0)) / 8)
        if hdop.isFinite { score *= min(1, 1.5 / max(hdop, 0.5)) }
        if error.isFinite { score *= min(1, 5 / max(error, 1)) }
        score *= max(0, 1 - age / 10)
        if !threeD { score *= 0.8 }
        if frozen { score *= 0.2 }
        return (Int(score.rounded()), warnings)
    }
}
