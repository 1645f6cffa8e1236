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
    /// The satellites of the last complete GSV cycle; `skyCycles` counts completed cycles.
    public let sky = SatelliteView()
    public private(set) var skyCycles = 0
    private var gsvTalker: UInt16 = 0
    private var gsaTalkers = 0
    private var cycleTime = Double.nan
    private var dayNumber: Int?
    private var lastType: UInt32 = 0
    private var closingType: UInt32 = 0
    private var lastMode = FixMode.unknown

    public init() {}

    static let gga = NMEAFields.type("GGA"), rmc = NMEAFields.type("RMC"), gsa = NMEAFields.type("GSA")
    static let gsv = NMEAFields.type("GSV"), vtg = NMEAFields.type("VTG"), gll = NMEAFields.type("GLL")
    static let gns = NMEAFields.type("GNS"), zda = NMEAFields.type("ZDA"), gst = NMEAFields.type("GST")

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
        if type == Self.gga || type == Self.rmc || type == Self.gll || type == Self.gns {
            let time = fields.timeOfDay(type == Self.gll ? 5 : 1)
            if time.isFinite && time != cycleTime {
                if cycleTime.isFinite {
                    if closingType == 0 || closingType != lastType { completed = finish() }
                    // The last type before the time moved on closes cycles, unless it also opens
                    // this one: a cycle of one sentence (or a cut burst) teaches nothing.
                    if lastType != type { closingType = lastType }
                }
                // A GSA at the head of the first burst, before any time of day, saying there is
                // a fix, belongs to the first cycle; a "no fix" from before is stale.
                if cycleTime.isFinite || fix.mode.rawValue < 2 {
                    var fresh = GPSFix()
                    fresh.satellitesVisible = fix.satellitesVisible
                    fix = fresh
                    gsaTalkers = 0
                }
                cycleTime = time
            }
        }
        switch type {
        case Self.gga: applyGGA(fields)
        case Self.rmc: applyRMC(fields)
        case Self.gsa: applyGSA(fields)
        case Self.gsv: applyGSV(fields)
        case Self.vtg: applyVTG(fields)
        case Self.gll: applyGLL(fields)
        case Self.gns: applyGNS(fields)
        case Self.zda: applyZDA(fields)
        case Self.gst: applyGST(fields)
        default: break
        }
        fix.received = received
        lastType = type
        if type == closingType && cycleTime.isFinite && completed == nil { completed = finish() }
        return completed
    }

    /// The cycle in progress, as a fix, when the input has ended (the last cycle has no next
    /// time of day to close it); nil when it holds nothing.
    public mutating func flush() -> GPSFix? {
        guard cycleTime.isFinite, fix.latitude.isFinite || fix.mode != .unknown else { return nil }
        let last = finish()
        cycleTime = .nan
        return last
    }

    private mutating func finish() -> GPSFix {
        var done = fix
        if let day = dayNumber, cycleTime.isFinite { done.utc = Double(day) * 86_400 + cycleTime }
        if done.mode == .unknown && done.latitude.isFinite {
            // No GSA said: an altitude makes it 3D; a cycle without one (GLL or RMC alone)
            // keeps the dimension of the last cycle, as gpsd does.
            done.mode = done.altitudeMSL.isFinite ? .threeD : (lastMode.rawValue >= 2 ? lastMode : .twoD)
        }
        // gpsd reads a 2D verdict from GSA next to an altitude from GGA or GNS as 3D (receivers
        // that count too few satellites for 3D in GSA still solve for height); so do we, to
        // report what gpsd clients see from the same receiver.
        // An altitude next to "0 satellites used" is held, not solved, and stays 2D.
        if done.mode == .twoD && done.altitudeMSL.isFinite && done.satellitesUsed > 0 { done.mode = .threeD }
        lastMode = done.mode
        return done
    }

    private mutating func applyGGA(_ f: NMEAFields) {
        // Quality 0 is "no fix"; some receivers leave the field empty with a position, which
        // counts as a fix of unknown kind (gpsd does the same).
        if f.integer(6) == 0 {
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
        // As in gpsd, the latest sentence's position stands (receivers give RMC and GGA
        // different precision; the fix reports the one that came last).
        let latitude = f.coordinate(3, hemisphere: 4), longitude = f.coordinate(5, hemisphere: 6)
        if latitude.isFinite && longitude.isFinite {
            fix.latitude = latitude
            fix.longitude = longitude
        }
        let knots = f.number(7)
        if knots.isFinite { fix.speed = knots * 1852 / 3600 }
        fix.course = f.number(8)
    }

    private mutating func applyGSA(_ f: NMEAFields) {
        if let mode = f.integer(2), (1...3).contains(mode) { fix.mode = FixMode(rawValue: mode) ?? .unknown }
        // One GSA per constellation in a cycle: the used list restarts with the cycle's first.
        if gsaTalkers == 0 { sky.clearUsed() }
        gsaTalkers += 1
        for field in 3...14 { if let prn = f.integer(field), prn > 0 { sky.markUsed(prn) } }
        fix.pdop = f.number(15)
        fix.hdop = f.number(16)
        fix.vdop = f.number(17)
    }

    private mutating func applyGLL(_ f: NMEAFields) {
        // Status A is valid; NMEA 2.3 adds a mode letter where N means no fix.
        guard f.character(6) == UInt8(ascii: "A"), f.character(7) != UInt8(ascii: "N") else { return }
        let latitude = f.coordinate(1, hemisphere: 2), longitude = f.coordinate(3, hemisphere: 4)
        if latitude.isFinite && longitude.isFinite {
            fix.latitude = latitude
            fix.longitude = longitude
        }
    }

    /// GNS: the multi-constellation GGA, with a mode letter per system instead of a quality.
    private mutating func applyGNS(_ f: NMEAFields) {
        let modes = f.character(6)
        guard modes != 0, modes != UInt8(ascii: "N") else {
            if fix.mode == .unknown { fix.mode = .noFix }
            return
        }
        fix.latitude = f.coordinate(2, hemisphere: 3)
        fix.longitude = f.coordinate(4, hemisphere: 5)
        fix.satellitesUsed = f.integer(7) ?? fix.satellitesUsed
        let hdop = f.number(8)
        if hdop.isFinite { fix.hdop = hdop }
        fix.altitudeMSL = f.number(9)
        fix.geoidSeparation = f.number(10)
        if fix.altitudeMSL.isFinite && fix.geoidSeparation.isFinite {
            fix.altitudeHAE = fix.altitudeMSL + fix.geoidSeparation
        }
    }

    /// ZDA: the date (and time) alone, for receivers whose RMC is off.
    private mutating func applyZDA(_ f: NMEAFields) {
        guard let day = f.integer(2), let month = f.integer(3), let year = f.integer(4),
              (1...31).contains(day), (1...12).contains(month), (1980...2200).contains(year) else { return }
        dayNumber = CivilTime.days(year: year, month: month, day: day)
    }

    /// GST: the receiver's own error estimate; one-sigma latitude and longitude errors combine
    /// into the horizontal error, the altitude error is the vertical one.
    private mutating func applyGST(_ f: NMEAFields) {
        let latitudeError = f.number(6), longitudeError = f.number(7), altitudeError = f.number(8)
        if latitudeError.isFinite && longitudeError.isFinite {
            fix.eph = (latitudeError * latitudeError + longitudeError * longitudeError).squareRoot()
        }
        if altitudeError.isFinite { fix.epv = altitudeError }
    }

    /// GSV: satellites in view, a few per sentence; a cycle per talker is complete at its last
    /// sentence, and a new cycle from the first talker starts a new view.
    private mutating func applyGSV(_ f: NMEAFields) {
        guard let total = f.integer(1), let number = f.integer(2), (1...9).contains(total), (1...total).contains(number) else { return }
        let talker = f.talker
        if number == 1 && (talker == gsvTalker || gsvTalker == 0) {
            sky.clearSatellites()
            gsvTalker = talker
        }
        var field = 4
        while field + 3 < f.count + 1 && field <= 19 {
            if let prn = f.integer(field), prn > 0 {
                sky.add(Satellite(prn: prn, elevation: f.number(field + 1), azimuth: f.number(field + 2),
                                  snr: f.number(field + 3), used: false))
            }
            field += 4
        }
        if let seen = f.integer(3), seen >= 0, seen < 256, talker == gsvTalker { fix.satellitesVisible = seen }
        if number == total {
            sky.applyUsed()
            fix.satellitesVisible = max(fix.satellitesVisible, sky.count)
            skyCycles += 1
        }
    }

    private mutating func applyVTG(_ f: NMEAFields) {
        let course = f.number(1)
        if course.isFinite { fix.course = course }
        let kmh = f.number(7)
        if kmh.isFinite { fix.speed = kmh / 3.6 }
    }
}
