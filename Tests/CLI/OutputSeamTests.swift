import Glibc
import LodestoneCore
import LodestoneOutputs
import Testing
@testable import LodestoneEncoding

/// What every output gets through the one seam, read from the outside on the simulated boat:
/// a client on the socket watching the reports and the NMEA sentences together.
@Suite(.serialized) struct OutputSeamTests {
    /// One ATT with the heading sentences sent just before it.
    struct Beat {
        var time: Double
        var heading: Double
        var rot: Double?
        var hdm: Double?
    }

    struct Trip {
        var beats: [Beat] = []
        var tpvs: [JSONValue] = []
        var levelEvents = 0
        var attTimes: [String: [Double]] = [:]
        var log = ""
        /// How long the run took in real time (seconds).
        var wallSeconds = 0.0
    }

    /// Two hundred seconds of the boat (its swing, then sailing) at 20 times real speed: the run ends
    /// on the trip's time, so a machine busy with other tests slows it without shortening it.
    static let trip: Trip? = {
        let end = EndToEndTests()
        let socket = "/tmp/lodestone-seam-\(getpid()).sock"
        guard
            let child = try? end.spawn([
                "run", "--scenario", "boat", "--speed", "20", "--duration", "480", "--display", "none",
                "--socket", socket, "--data-dir", "/tmp/lodestone-seam-\(getpid())"
            ])
        else { return nil }
        defer { _ = TerminalDisplayTests.output("rm -rf /tmp/lodestone-seam-\(getpid())") }
        let started = SystemMonotonicClock().now()
        guard let client = end.connect(socket, to: child) else { return nil }
        // Not the IMU's two thousand reports a second at 20x under way, nor SKY, which the trip
        // does not judge: a watcher slowed by the rest of the suite would fall behind them and be
        // dropped as a client that stopped reading.
        client.send(#"?WATCH={"enable":true,"json":true,"nmea":true,"rates":{"IMU":0,"SKY":0}};"#)
        var trip = Trip()
        var rot: Double?, hdm: Double?
        func field(_ sentence: String, _ index: Int) -> Double? {
            let fields = sentence.split(separator: ",", omittingEmptySubsequences: false)
            return fields.count > index ? Double(fields[index]) : nil
        }
        // A machine busy with the rest of the suite can stall the trip for seconds: only a
        // stream quiet for half a minute has ended.
        reading: while let line = client.readLine(timeoutMilliseconds: 30_000) {
            if line.hasPrefix("$HCROT") { rot = field(line, 1); continue }
            if line.hasPrefix("$HCHDM") { hdm = field(line, 1); continue }
            guard line.hasPrefix("{"), let report = try? JSONValue.parse(line), let kind = report["class"]?.stringValue else { continue }
            let time = report["time"]?.stringValue.flatMap(CivilTime.parseISO8601)
            switch kind {
            case "ATT":
                if let time, let heading = report["mheading"]?.numberValue {
                    trip.beats.append(Beat(time: time, heading: heading, rot: rot, hdm: hdm))
                    trip.attTimes[report["device"]?.stringValue ?? "", default: []].append(time)
                    if let first = trip.beats.first, time - first.time >= Self.tripSeconds {
                        kill(child.pid, SIGTERM)
                        break reading
                    }
                }
                (rot, hdm) = (nil, nil)
            case "TPV": trip.tpvs.append(report)
            case "EVENT" where report["event"]?.stringValue == "level": trip.levelEvents += 1
            default: break
            }
        }
        trip.log = end.finish(child).output
        trip.wallSeconds = Double(SystemMonotonicClock().now() - started) / 1e9
        return trip
    }()

    /// How much of the boat's trip the client watches (seconds of the trip).
    static let tripSeconds = 200.0

    /// ATT's time only moves forward, per device: never the same state twice, never a copy
    /// stamped earlier.
    @Test func attitudeTimesStrictlyIncrease() throws {
        let trip = try #require(Self.trip)
        #expect(trip.beats.count > 1300, "\(trip.beats.count) ATT")  // 10 Hz over 200 s
        for (device, times) in trip.attTimes {
            let backwards = zip(times, times.dropFirst()).filter { $1 <= $0 }.count
            #expect(backwards == 0, "\(device): \(backwards) of \(times.count) ATT no later than the one before")
        }
    }

    /// ROT is the gyro's through the moment the heading becomes valid: it agrees with how fast
    /// the heading turns (no -945°/min on a turn to starboard), and the first HDM is no jump
    /// from the next.
    @Test func rateOfTurnAgreesWithTheTurnThroughTheFirstValidHeading() throws {
        let beats = try #require(Self.trip).beats
        let first = try #require(beats.firstIndex { $0.hdm != nil }, "no valid heading on the boat in 200 s")
        let valid = beats[first...].prefix(600)
        var errors: [Double] = []
        // Each window lies wholly after the heading became valid: 2 s of turn against the ROT
        // sent at its middle.
        for index in valid.indices where index + 20 < beats.count {
            guard let rot = beats[index + 10].rot else { continue }
            let before = beats[index], after = beats[index + 20]
            let turned = Angle.signed(after.heading - before.heading)
            let derived = turned / (after.time - before.time) * 60
            errors.append(abs(rot - derived))
        }
        // The heading itself may step when the compass takes up a new calibration (the gyro's
        // rate rightly does not), so the agreement is judged on the bulk and at the start.
        let sorted = errors.sorted()
        let median = sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        let p95 = sorted.isEmpty ? .nan : sorted[sorted.count * 95 / 100]
        let atStart = errors.prefix(20).max() ?? .nan
        // At the start the heading is still closing the last degrees on the new calibration
        // (a few degrees a second), which the gyro rightly does not see; the fault this guards
        // against read 1,150°/min from the truth there.
        #expect(
            errors.count > 300 && median < 30 && p95 < 90 && atStart < 240,
            "ROT against the heading's turn: median \(median), p95 \(p95), worst \(sorted.last ?? .nan), first 2 s \(atStart) deg/min over \(errors.count)")
        let hdms = valid.compactMap(\.hdm)
        let jumps = zip(hdms, hdms.dropFirst()).map { abs(Angle.signed($1 - $0)) }
        #expect(jumps.allSatisfy { $0 < 3 }, "HDM jumps from one to the next: \(jumps.filter { $0 >= 3 }.prefix(5)) (first \(jumps.first ?? .nan))")
    }

    /// TPV carries its errors, the climb and the magnetic variation with a 3D fix.
    @Test func fixesCarryTheirErrors() throws {
        let trip = try #require(Self.trip)
        let threeD = trip.tpvs.filter { $0["mode"]?.numberValue == 3 }
        #expect(threeD.count > 100)
        for key in ["eph", "epv", "eps", "climb", "magvar"] {
            let missing = threeD.filter { $0[key]?.numberValue == nil }.count
            #expect(missing <= 5, "\(missing) of \(threeD.count) 3D TPVs without \(key)")
        }
        // On the water the boat neither climbs nor sinks: the climb is within a few tenths.
        let climbs = threeD.suffix(200).compactMap { $0["climb"]?.numberValue }
        #expect(climbs.allSatisfy { abs($0) < 0.5 }, "\(climbs.filter { abs($0) >= 0.5 }.prefix(5))")
        // The declination at the boat's place, from the World Magnetic Model: a few degrees east.
        let magvar = threeD.last?["magvar"]?.numberValue ?? .nan
        #expect(magvar > 0 && magvar < 6, "\(magvar)")
    }

    /// The rolling boat passes through level again and again: `level` changes at most twice a
    /// minute.
    @Test func levelChangesAtMostTwiceAMinute() throws {
        let trip = try #require(Self.trip)
        let span = (trip.beats.last?.time ?? 0) - (trip.beats.first?.time ?? 0)
        #expect(span >= Self.tripSeconds - 1)
        #expect(Double(trip.levelEvents) <= 2 * span / 60 + 1, "\(trip.levelEvents) level events in \(span) s")
    }

    /// A log line said again within a minute is counted, not written: no line appears more
    /// than once in each minute of the run (the numbers in it aside).
    @Test func aRepeatedLogLineIsWrittenOnceAMinute() throws {
        let trip = try #require(Self.trip)
        let log = trip.log
        let allowed = Int((trip.wallSeconds / 60).rounded(.up))
        var seen: [String: Int] = [:]
        for line in log.split(separator: "\n") where line.hasPrefix("lodestone:") {
            seen[String(line.unicodeScalars.filter { !("0"..."9").contains($0) }), default: 0] += 1
        }
        let repeated = seen.filter { $0.value > allowed }
        #expect(repeated.isEmpty, "\(repeated)")
    }
}
