import LodestoneCore

/// Merges NMEA sentences into one `GPSFix` per reporting cycle.
///
/// Receivers send a burst of sentences per fix (GGA, GSA, GSV..., RMC, VTG, in an order of
/// their own). The parser learns which sentence type closes a cycle (the last one before the
/// time of day changes) and from then on hands out the fix as soon as that sentence arrives.
/// Invalid sentences are counted and never touch the fix. Nothing allocates per sentence.
public struct NMEAParser {
    public private(set) var fix = GPSFix()
    public private(set) var rejected = 0
    public private(set) var accepted = 0
    private var cycleTime = Double.nan
    private var dayNumber: Int?
    private var lastType: UInt32 = 0
    private var closingType: UInt32 = 0

    public init() {}

    static let gga = NMEAFields.type("GGA"), rmc = NMEAFields.type("RMC"), gsa = NMEAFields.type("GSA")
    static let gsv = NMEAFields.type("GSV"), vtg = NMEAFields.type("VTG"), gll = NMEAFields.type("GLL")

    /// Takes one sentence; returns the finished fix when this sentence completed a cycle.
    public mutating func parse(_ sentence: UnsafeBufferPointer<UInt8>, received: MonotonicNanoseconds) -> GPSFix? {
        guard let fields = NMEAFields(sentence) else {
            rejected += 1
            return nil
        }
        accepted += 1
        let type = fields.sentenceType
        var completed: GPSFix?
        // A new time of day starts a new cycle: the previous one is complete.
        if type == Self.gga || type == Self.rmc || type == Self.gll {
            let time = fields.timeOfDay(1)
            if time.isFinite && time != cycleTime {
                if cycleTime.isFinite {
                    if closingType == 0 || closingType != lastType { completed = finish() }
                    closingType = lastType
                }
                cycleTime = time
                var fresh = GPSFix()
                fresh.satellitesVisible = fix.satellitesVisible
                fix = fresh
            }
        }
        switch type {
        case Self.gga: applyGGA(fields)
        case Self.rmc: applyRMC(fields)
        case Self.gsa: applyGSA(fields)
        case Self.gsv: if let seen = fields.integer(3), seen >= 0, seen < 256 { fix.satellitesVisible = seen }
        case Self.vtg: applyVTG(fields)
        default: break
        }
        fix.received = received
        lastType = type
        if type == closingType && cycleTime.isFinite { completed = finish() }
        return completed
    }

    private mutating func finish() -> GPSFix {
        var done = fix
        if let day = dayNumber, cycleTime.isFinite { done.utc = Double(day) * 86_400 + cycleTime }
        if done.mode == .unknown && done.latitude.isFinite { done.mode = done.altitudeMSL.isFinite ? .threeD : .twoD }
        return done
    }

    private mutating func applyGGA(_ f: NMEAFields) {
        let quality = f.integer(6) ?? 0
        if quality == 0 {
            fix.mode = .noFix
            return
        }
        fix.latitude = f.coordinate(2, hemisphere: 3)
        fix.longitude = f.coordinate(4, hemisphere: 5)
        fix.satellitesUsed = f.integer(7) ?? fix.satellitesUsed
        fix.hdop = f.number(8)
        fix.altitudeMSL = f.number(9)
        fix.geoidSeparation = f.number(11)
        if fix.altitudeMSL.isFinite && fix.geoidSeparation.isFinite {
            fix.altitudeHAE = fix.altitudeMSL + fix.geoidSeparation
        }
    }

    private mutating func applyRMC(_ f: NMEAFields) {
        dayNumber = f.date(9) ?? dayNumber
        guard f.character(2) == UInt8(ascii: "A") else {
            if fix.mode == .unknown { fix.mode = .noFix }
            return
        }
        if fix.latitude.isNaN {
            fix.latitude = f.coordinate(3, hemisphere: 4)
            fix.longitude = f.coordinate(5, hemisphere: 6)
        }
        let knots = f.number(7)
        if knots.isFinite { fix.speed = knots * 1852 / 3600 }
        fix.course = f.number(8)
    }

    private mutating func applyGSA(_ f: NMEAFields) {
        if let mode = f.integer(2), (1...3).contains(mode) { fix.mode = FixMode(rawValue: mode) ?? .unknown }
        fix.pdop = f.number(15)
        fix.hdop = f.number(16)
        fix.vdop = f.number(17)
    }

    private mutating func applyVTG(_ f: NMEAFields) {
        let course = f.number(1)
        if course.isFinite { fix.course = course }
        let kmh = f.number(7)
        if kmh.isFinite { fix.speed = kmh / 3.6 }
    }
}
