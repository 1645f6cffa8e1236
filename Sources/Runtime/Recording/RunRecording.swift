import LodestoneCore
import LodestoneEncoding
import LodestoneHAL
import LodestoneSettings
import LodestoneStorage
import LodestoneBoard

/// `run --record FILE`: every answer the sampling side gets from outside (each I2C transfer's
/// bytes or error, the receiver's bytes as they arrived, the GPIO edges with the kernel's time
/// stamps, each reading of the clock) and every value it takes from the output side, written
/// by the sampling thread into a byte ring (no allocation, no waiting) and from there, on the
/// output thread, into the recording file a second at a time.
///
/// Unchecked Sendable: the sampling thread only records through `recorder` (its producer) and
/// calls `claim`; everything else here is the output thread's.
final class RunRecording: @unchecked Sendable {
    let recorder = InputRecorder()
    private let path: String
    private let maximumBytes: Int
    private var writer: RecordingWriter?
    /// The GPIO lines recorded, by role (`RecordedLine`).
    private(set) var lines: [UInt8] = []
    /// Bus paths in the order the recording numbers them.
    let buses: [String]

    /// The board file's text, kept in the header (a replay builds the same board from it).
    private let boardText: String?

    init(path: String, maximumMB: Double, board: BoardDescription, boardText: String?) {
        self.path = path
        self.boardText = boardText
        // Within the setting's range always; NaN (which no setting holds) keeps the default 200 MB.
        maximumBytes = Int(rounding: min(max(maximumMB, 1), 100_000) * 1_000_000) ?? 200_000_000
        buses = Self.busPaths(board)
    }

    /// The distinct buses of the board's chips, in the order IMU, magnetometer, barometer: a
    /// replay numbers them the same way from the same board.
    static func busPaths(_ board: BoardDescription) -> [String] {
        var paths: [String] = []
        for chip in [board.imu, board.magnetometer, board.barometer].compactMap({ $0 }) where !paths.contains(board.bus(of: chip)) {
            paths.append(board.bus(of: chip))
        }
        return paths
    }

    func bus<Bus: I2CBus>(_ bus: Bus, path: String) -> RecordingI2CBus<Bus> {
        RecordingI2CBus(bus, bus: UInt8(truncatingIfNeeded: buses.firstIndex(of: path) ?? 255), recorder: recorder)
    }

    /// The clock the sampling side reads, recorded once the sampling thread `claim`s it.
    func clock<Inner: MonotonicClock>(_ inner: Inner) -> RecordingClock<Inner> {
        let clock = RecordingClock(inner, recorder: recorder)
        claim = { clock.claim() }
        unrecordedNow = { inner.now() }
        return clock
    }
    /// For the sampling thread's first step.
    private(set) var claim: () -> Void = {}
    private var unrecordedNow: () -> MonotonicNanoseconds = { 0 }
    /// The device's clock when the recording began, beside `startUTC` in the header: the
    /// run's time base is anchored there, as a replay's is.
    private(set) var startMonotonic: MonotonicNanoseconds?

    func serial(_ port: any SerialPort) -> any SerialPort { RecordingSerialPort(port, recorder: recorder) }

    func line(_ input: any DigitalInput, role: UInt8) -> any DigitalInput {
        lines.append(role)
        return RecordingDigitalInput(input, line: role, recorder: recorder)
    }

    /// Opens the file with the header of what runs; false (said) when it cannot be written.
    func begin(configuration c: Configuration, board: BoardDescription, gpsPath: String?, startUTC: Double, zone: String?) -> Bool {
        let started = unrecordedNow()
        startMonotonic = started
        var boardEntry: [(String, JSONValue)] = [("name", .string(board.name)), ("simulated", .bool(board.simulated))]
        if let boardText { boardEntry.append(("text", .string(boardText))) }
        // The built-in board has no text: where its vane stands is said, so a replay builds it so.
        if boardText == nil, board.station.vane?.aboard == true { boardEntry.append(("vaneAboard", .bool(true))) }
        let header = JSONValue.object([
            ("format", .string(RecordingFile.formatName)),
            ("codec", .number(Double(InputEventCodec.version))),
            ("lodestone", .string(Version.line)),
            ("board", .object(boardEntry)),
            ("buses", .array(buses.map { .string($0) })),
            ("lines", .array(lines.map { .number(Double($0)) })),
            ("gps", gpsPath.map { .string($0) } ?? .null),
            ("startUTC", .number(startUTC)),
            // Nanoseconds, as text: a board's uptime outgrows a double's whole numbers.
            ("startMonotonic", .string(String(started))),
            // The broker's credentials stay on the device.
            ("configuration", Self.replayable(c, zone: zone).fileObject(leaving: ["mqtt"]))
        ])
        do {
            writer = try RecordingWriter(path: path, header: header, maximumBytes: maximumBytes, now: OutputClock.unixTime())
        } catch {
            Log.error("cannot record: \(error.description)")
            return false
        }
        Log.info("recording the sampling side's inputs into \(path) (at most \(maximumBytes / 1_000_000) MB on the card)")
        return true
    }

    /// The configuration as a replay elsewhere must read it: the device's time zone named (the
    /// local times a replay publishes are the board's, not the replaying machine's).
    static func replayable(_ c: Configuration, zone: String?) -> Configuration {
        var c = c
        if c.timeZone == nil { c.timeZone = zone ?? (try? TimeZoneRules(nil))?.name ?? "UTC" }
        return c
    }

    /// The stream from its start to the first restart point: the chips' bring-up and the
    /// loop's first second, which every file of a rotated recording begins with (a replay
    /// starts where the device started, then takes up the restart point's schedule).
    private var prelude: [UInt8]?
    private var preludeSoFar: [UInt8] = []
    /// Bytes of the stream taken from the ring so far, and the restart point last acted on.
    private var drained = 0
    private var restartHandled = -1
    /// When the last restart point was asked for (the device's seconds), and whether the file
    /// waits for one to rotate at.
    private var restartAsked: Double?
    private var rotationWaiting = false
    /// Restart points come every 10 minutes of the device's time: a piece (`recording cut
    /// --from`) starts at most that long before where it was asked to.
    static let restartInterval = 600.0

    /// Moves what the sampling thread recorded into the file (the output thread's task),
    /// cutting at restart points: the first ends the prelude; at a later one the file rotates
    /// when it is over half its bound.
    /// - Parameter deviceSeconds: the device's clock, for the restart points' pace.
    func drain(deviceSeconds: Double) {
        guard let writer else { return }
        let now = OutputClock.unixTime()
        let full = writer.full
        if restartAsked.map({ deviceSeconds - $0 >= Self.restartInterval }) ?? true || (full && !rotationWaiting) {
            if restartAsked != nil && full { rotationWaiting = true }
            restartAsked = deviceSeconds
            recorder.requestRestart()
        }
        var failure: StorageError?
        _ = recorder.ring.drain { bytes in
            guard failure == nil else { return }
            do throws(StorageError) { try take(bytes, writer: writer, now: now) } catch { failure = error }
        }
        if let failure {
            Log.error("the recording stopped: \(failure.description)")
            self.writer = nil
        }
    }

    private func take(_ bytes: UnsafeBufferPointer<UInt8>, writer: RecordingWriter, now: Double) throws(StorageError) {
        let restart = recorder.lastRestart.load(ordering: .acquiring)
        let end = drained + bytes.count
        guard restart > restartHandled, restart >= drained, restart < end else {
            try write(bytes[...], writer: writer, now: now)
            drained = end
            return
        }
        let split = restart - drained
        try write(bytes[..<split], writer: writer, now: now)
        restartHandled = restart
        if prelude == nil {
            prelude = preludeSoFar
            preludeSoFar = []
        } else if rotationWaiting, let prelude {
            rotationWaiting = false
            try writer.rotate(prelude: prelude, now: now)
            Log.info("the recording moved to \(path).1; \(path) goes on from here")
        }
        try write(bytes[split...], writer: writer, now: now)
        drained = end
    }

    private func write(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, writer: RecordingWriter, now: Double) throws(StorageError) {
        if prelude == nil { preludeSoFar.append(contentsOf: bytes) }
        try writer.take(bytes, now: now)
    }

    /// A take of the weather station, or a reading of the power supply (the output thread's).
    func note(_ entry: JSONValue) {
        guard let writer else { return }
        do { try writer.outputSide(entry, now: OutputClock.unixTime()) } catch {
            Log.error("the recording stopped: \(error.description)")
            self.writer = nil
        }
    }

    /// Writes the rest and says what was kept.
    func close() {
        drain(deviceSeconds: restartAsked ?? 0)
        guard let writer else { return }
        do { try writer.close(now: OutputClock.unixTime()) } catch { Log.error("the recording's end was not written: \(error.description)") }
        let lost = recorder.lostBytes > 0 ? "; \(recorder.lostBytes) bytes lost while the card fell behind" : ""
        Log.info(
            "recorded \(writer.rawBytes) bytes of inputs into \(path) (\(writer.storedBytes) on the card"
                + (writer.files > 1 ? "; rotated \(writer.files - 1) times, the older part in \(path).1" : "") + ")" + lost)
    }
}
