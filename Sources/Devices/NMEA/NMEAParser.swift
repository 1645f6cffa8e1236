import LodestoneCore

/// Merges NMEA sentences into one `GPSFix` per reporting cycle.
///
/// Receivers send a burst of sentences per fix (GGA, GSA, GSV..., RMC, VTG, in an order of
/// their own). The parser learns which sentence type closes a cycle (the last one before the
/// time of day changes) and from then on hands out the fix as soon as that sentence arrives.
/// Invalid sentences are counted and never touch the fix. Nothing allocates per sentence.
///
/// The fix's dimension follows gpsd's reading of a burst, so clients see the mode gpsd would
/// give for the same receiver: each sentence that says something about the fix casts a vote
/// in the order it arrives (GGA and GNS: 3D with a height from four satellites, 2D with
/// fewer, none below three; GSA its mode; RMC and GLL with status A: 3D when a height is
/// known or the last GSA used more than three satellites; a "void" status: no fix), the last
/// vote stands, and a 2D vote does not undo a 3D fix while a height is known.
public struct NMEAParser {
    public private(set) var fix = GPSFix()
    /// The last cycle completed.
    private var finished = GPSFix()
    /// Sentences that are not NMEA (a bad checksum, a broken frame).
    public private(set) var rejected = 0
    public private(set) var accepted = 0
    /// Sentences with a valid checksum dropped whole for a field beyond `GPSLimits`, and the
    /// last one's reason.
    public private(set) var outOfLimits = 0
    public private(set) var lastOutOfLimits: ImpossibleGPSField?
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
    /// The cycle's mode as gpsd last reported it (`.unknown`: not reported yet this cycle), the
    /// last sentence type that carried a time, and the one gpsd has learned ends cycles.
    private var reportedMode = FixMode.unknown
    private var lastTimedType: UInt32 = 0
    private var timedEnder: UInt32 = 0
    /// Whether the last cycle's fix had a height, and how many satellites the last GSA burst
    /// used (kept across cycles, as receivers send GSA less often than positions).
    private var lastHadAltitude = false
    private var gsaUsed = 0
    /// The cycle in progress was handed out when the line went quiet after it (`endOfBurst`),
    /// and whether it was handed out at all (by its closing sentence or the quiet line).
    private var burstClosed = false
    private var handedOut = false

    public init() {}

    /// The sentence types as `NMEAFields.type` packs them ("GGA" is 0x47_47_41), written as
    /// literals: constants need no lazy initialisation on every sentence's path (the tests
    /// check each against `NMEAFields.type`).
    static let gga: UInt32 = 0x47_47_41, rmc: UInt32 = 0x52_4D_43, gsa: UInt32 = 0x47_53_41
    static let gsv: UInt32 = 0x47_53_56, vtg: UInt32 = 0x56_54_47, gll: UInt32 = 0x47_4C_4C
    static let gns: UInt32 = 0x47_4E_53, zda: UInt32 = 0x5A_44_41, gst: UInt32 = 0x47_53_54
    /// Garmin's proprietary altitude, `$PGRMZ`: its last three letters, told from a talker's
    /// "RMZ" by the proprietary "P" in front.
    static let rmz: UInt32 = 0x52_4D_5A

    /// Takes one sentence; returns the finished fix when this sentence completed a cycle.
    public mutating func parse(_ sentence: UnsafeBufferPointer<UInt8>, received: MonotonicNanoseconds) -> GPSFix? {
        guard let fields = NMEAFields(sentence) else {
            rejected += 1
            return nil
        }
        let type = fields.sentenceType
        // The limited fields are read once, before the sentence touches the cycle or the fix.
        let measured = Measured(fields, type: type)
        guard measured.isPossible else {
            outOfLimits += 1
            lastOutOfLimits = measured.impossible
            return nil
        }
        accepted += 1
        // Whether this sentence completed a cycle, whose fix is then in `finished`: a flag and
        // a kept fix rather than an optional one, which would be copied at every step.
        var completed = false
        // A new time of day starts a new cycle: the previous one is complete. A void RMC's time
        // is no fix's (receivers send it with the clock running before they have one).
        let voidRMC = type == Self.rmc && fields.character(2) != UInt8(ascii: "A") && fields.character(2) != UInt8(ascii: "D")
        let timed = type == Self.gga || (type == Self.rmc && !voidRMC) || type == Self.gll || type == Self.gns
        if timed {
            let time = fields.timeOfDay(type == Self.gll ? 5 : 1)
            // gpsd learns the last sentence with a time (a void RMC's counts here) before the
            // time moves on as the one that ends cycles (a GLL continues one); it reports after
            // a valid RMC only once that is the one.
            if time.isFinite && time != cycleTime && cycleTime.isFinite && type != Self.gll { timedEnder = lastTimedType }
            if time.isFinite && time != cycleTime {
                if cycleTime.isFinite && !burstClosed {
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
                    reportedMode = .unknown
                    gsaTalkers = 0
                }
                cycleTime = time
                burstClosed = false
                handedOut = false
            }
        }
        switch type {
        case Self.gga: applyGGA(fields, measured)
        case Self.rmc: applyRMC(fields, measured)
        case Self.gsa: applyGSA(fields, measured)
        case Self.gsv: applyGSV(fields)
        case Self.vtg: applyVTG(measured)
        case Self.gll: applyGLL(fields)
        case Self.gns: applyGNS(fields, measured)
        case Self.zda: applyZDA(fields)
        case Self.gst: applyGST(fields)
        case Self.rmz where fields.isProprietary("GRMZ"): applyPGRMZ(fields, measured)
        default: break
        }
        // gpsd reports after every sentence but a dated one (a valid RMC) it has not yet learned
        // closes cycles: until it has, a cycle's verdict is the one before such an RMC.
        if type != Self.rmc || voidRMC || timedEnder == Self.rmc { reportedMode = fix.mode }
        if timed || type == Self.rmc { lastTimedType = type }
        fix.received = received
        lastType = type
        if type == closingType && cycleTime.isFinite && !completed && !burstClosed {
            completed = finish()
            handedOut = true
        }
        return completed ? finished : nil
    }

    /// The line went quiet after a burst (the runtime calls this when no byte came for a while):
    /// receivers send one burst per fix, so the cycle in progress is complete. Returns its fix
    /// when it holds one that was not handed out yet, and takes the burst's last sentence type
    /// as the one that closes cycles when none is known yet. The first fix then comes as soon
    /// as the first burst ends, not with the second.
    public mutating func endOfBurst() -> GPSFix? {
        guard cycleTime.isFinite, !handedOut, lastType != 0, fix.latitude.isFinite || fix.mode != .unknown else { return nil }
        if closingType == 0 { closingType = lastType }
        burstClosed = true
        handedOut = true
        _ = finish()
        return finished
    }

    /// The cycle in progress, as a fix, when the input has ended (the last cycle has no next
    /// time of day to close it); nil when it holds nothing.
    public mutating func flush() -> GPSFix? {
        guard cycleTime.isFinite, fix.latitude.isFinite || fix.mode != .unknown else { return nil }
        _ = finish()
        cycleTime = .nan
        return finished
    }

    /// Completes the cycle in progress into `finished`; returns true.
    private mutating func finish() -> Bool {
        finished = fix
        if let day = dayNumber, cycleTime.isFinite { finished.utc = Double(day) * 86_400 + cycleTime }
        if finished.mode == .unknown && finished.latitude.isFinite {
            finished.mode = finished.altitudeMSL.isFinite ? .threeD : (lastMode.rawValue >= 2 ? lastMode : .twoD)
        }
        // The next cycle goes on from the whole of this one (a 3D fix is not undone by a 2D vote
        // while a height is known); the cycle is reported as it was last reported.
        lastMode = finished.mode
        // A height held in a cycle without a fix (a receiver repeating its last one with too
        // few satellites) is no height the next cycle can lean on.
        lastHadAltitude = finished.altitudeMSL.isFinite && finished.mode.rawValue >= 2
        if reportedMode != .unknown && reportedMode != finished.mode { finished.mode = reportedMode }
        return true
    }

    /// A sentence's word on the fix's dimension; the last word of a cycle stands, except that
    /// 2D does not undo 3D while a height is known (a GSA counting too few satellites for 3D
    /// after a GGA that solved for height, as gpsd reads it).
    private mutating func vote(_ mode: FixMode) {
        if mode == .twoD && fix.mode == .threeD && (fix.altitudeMSL.isFinite || lastHadAltitude) { return }
        fix.mode = mode
    }

    /// GGA and GNS (fields 2-9: latitude, N/S, longitude, E/W, the quality or mode letters,
    /// satellites used, HDOP, altitude; the geoid separation at `separationField`).
    /// What the sentence gives stands over what the burst gave before (a second talker's GGA
    /// or a GNS after a GGA: the last one wins, as in gpsd); an empty field takes nothing
    /// away. Its vote: no position is no fix; fewer than three satellites is no fix (a
    /// position held, not solved); a height from four or more is 3D; otherwise 2D.
    private mutating func applyPosition(_ f: NMEAFields, _ m: Measured, separationField: Int) {
        let latitude = f.coordinate(2, hemisphere: 3), longitude = f.coordinate(4, hemisphere: 5)
        guard latitude.isFinite && longitude.isFinite else { return vote(.noFix) }
        fix.latitude = latitude
        fix.longitude = longitude
        let satellites = f.integer(7)
        fix.satellitesUsed = satellites ?? fix.satellitesUsed
        // Receivers send 99.99 (or 0) for a DOP they cannot give.
        let hdop = m.hdop
        if hdop > 0 && hdop < 99 { fix.hdop = hdop }
        let altitude = m.altitude, separation = f.number(separationField)
        if altitude.isFinite { fix.altitudeMSL = altitude }
        if separation.isFinite { fix.geoidSeparation = separation }
        if fix.altitudeMSL.isFinite && fix.geoidSeparation.isFinite {
            fix.altitudeHAE = fix.altitudeMSL + fix.geoidSeparation
        }
        // An empty satellite count is none (as gpsd reads it): a position held, not solved.
        let used = satellites ?? 0
        if used < 3 { return vote(.noFix) }
        vote(altitude.isFinite && used >= 4 ? .threeD : .twoD)
    }

    /// RMC and GLL with status A: no height of their own, so 3D when one is known (this cycle's
    /// or the last's) or the last GSA used more than three satellites.
    private mutating func voteWithoutHeight() {
        vote(fix.altitudeMSL.isFinite || lastHadAltitude || gsaUsed > 3 || lastMode == .threeD ? .threeD : .twoD)
    }

    /// GGA: the quality field says how the position was solved, not whether there is one; the
    /// position, the satellites and the height decide the mode (as gpsd reads it: a receiver
    /// that keeps sending its last position with quality 0 and three or more satellites is
    /// still reported with that position).
    private mutating func applyGGA(_ f: NMEAFields, _ m: Measured) {
        applyPosition(f, m, separationField: 11)
    }

    private mutating func applyRMC(_ f: NMEAFields, _ m: Measured) {
        dayNumber = f.date(9) ?? dayNumber
        // A is valid; some receivers write D (differential) there too; V or nothing is void.
        let status = f.character(2)
        guard status == UInt8(ascii: "A") || status == UInt8(ascii: "D") else { return vote(.noFix) }
        // As in gpsd, the latest sentence's position stands (receivers give RMC and GGA
        // different precision; the fix reports the one that came last).
        let latitude = f.coordinate(3, hemisphere: 4), longitude = f.coordinate(5, hemisphere: 6)
        if latitude.isFinite && longitude.isFinite {
            fix.latitude = latitude
            fix.longitude = longitude
        }
        if m.speed.isFinite { fix.speed = m.speed }
        fix.course = m.course
        if fix.latitude.isFinite { voteWithoutHeight() }
    }

    private mutating func applyGSA(_ f: NMEAFields, _ m: Measured) {
        if let mode = f.integer(2), let said = FixMode(rawValue: mode), (1...3).contains(mode) { vote(said) }
        // One GSA per constellation in a cycle: the used list restarts with the cycle's first.
        if gsaTalkers == 0 {
            sky.clearUsed()
            gsaUsed = 0
        }
        gsaTalkers += 1
        for field in 3...14 {
            if let prn = f.integer(field), prn > 0 {
                sky.markUsed(prn)
                gsaUsed += 1
            }
        }
        // A DOP of 0 is the receiver's "none" (several send 0.0 without a fix, or for VDOP in 2D).
        fix.pdop = m.pdop > 0 ? m.pdop : .nan
        fix.hdop = m.hdop > 0 ? m.hdop : .nan
        fix.vdop = m.vdop > 0 ? m.vdop : .nan
    }

    private mutating func applyGLL(_ f: NMEAFields) {
        // Status A is valid; NMEA 2.3 adds a mode letter where N means no fix.
        guard f.character(6) == UInt8(ascii: "A"), f.character(7) != UInt8(ascii: "N") else { return vote(.noFix) }
        let latitude = f.coordinate(1, hemisphere: 2), longitude = f.coordinate(3, hemisphere: 4)
        if latitude.isFinite && longitude.isFinite {
            fix.latitude = latitude
            fix.longitude = longitude
            voteWithoutHeight()
        }
    }

    /// GNS: the multi-constellation GGA, with a mode letter per system instead of a quality.
    private mutating func applyGNS(_ f: NMEAFields, _ m: Measured) {
        let modes = f.character(6)
        guard modes != 0, modes != UInt8(ascii: "N") else { return vote(.noFix) }
        // NMEA 4.1's navigational status: U (unsafe) or V (not valid) gives no position.
        let status = f.character(13)
        guard status != UInt8(ascii: "U"), status != UInt8(ascii: "V") else { return }
        applyPosition(f, m, separationField: 10)
    }

    /// PGRMZ (Garmin): the altitude in whole feet above mean sea level, and the fix's
    /// dimension (1 none, 2 2D, 3 3D). Receivers that send it give the barometer-aided or
    /// smoothed height the unit shows, so it stands over GGA's for the cycle, as gpsd reports.
    private mutating func applyPGRMZ(_ f: NMEAFields, _ m: Measured) {
        guard f.character(2) == UInt8(ascii: "f"), m.altitude.isFinite else { return }
        fix.altitudeMSL = m.altitude
        // The height above the ellipsoid stays the GGA's when it gave one.
        if !fix.altitudeHAE.isFinite && fix.geoidSeparation.isFinite { fix.altitudeHAE = fix.altitudeMSL + fix.geoidSeparation }
        if let dimension = f.integer(3), let said = FixMode(rawValue: dimension), (1...3).contains(dimension) { vote(said) }
    }

    /// ZDA: the date (and time) alone, for receivers whose RMC is off.
    private mutating func applyZDA(_ f: NMEAFields) {
        guard let day = f.integer(2), let month = f.integer(3), let year = f.integer(4),
            (1...31).contains(day), (1...12).contains(month), (1980...2200).contains(year)
        else { return }
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
                sky.add(
                    Satellite(
                        prn: prn, elevation: f.number(field + 1), azimuth: f.number(field + 2),
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

    private mutating func applyVTG(_ m: Measured) {
        if m.course.isFinite { fix.course = m.course }
        if m.speed.isFinite { fix.speed = m.speed }
    }
}
