import LodestoneCore
import LodestoneDomain
import LodestoneHAL

/// The receiver's half of the sampling thread: drains its serial line, times each burst of
/// messages against the pulse-per-second line, hands the decoder's fixes, satellites and raw
/// messages to the pipeline's rings and judges the receiver's health by its fixes' pace.
///
/// Generic over the protocol's decoder so the sampling loop calls it directly; everything it
/// needs was allocated at `init`.
final class GPSReader<Decoder: ReceiverDecoder> {
    private let port: any SerialPort
    private let decoder: Decoder
    private let clock: any MonotonicClock
    private let fixes: SPSCRing<GPSFix>
    private let sky: SPSCRing<SkyItem>
    private let sentences: SPSCRing<RawSentence>
    /// When the receiver last sent a byte.
    private var lastByteTime: MonotonicNanoseconds = 0
    /// Bytes read since the line was last quiet (the burst so far).
    private var burstBytes: Int32 = 0
    private var burstStart: MonotonicNanoseconds = 0
    /// The receiver's pulse-per-second line, when wired, and its latest rising edge (the
    /// kernel's time stamp): the start of a UTC second.
    private let pulseLine: (any DigitalInput)?
    private var lastPulse: MonotonicNanoseconds = 0
    /// The pulse before the current burst began: the second its fix was made in.
    private var burstPulse: MonotonicNanoseconds = 0
    private let serialBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 8)
    private var lastFixTime: MonotonicNanoseconds = 0
    /// The fix interval asked of the receiver, as this thread has seen it.
    private var fixPace = FixPace()
    /// Along-course acceleration from the receiver's speed.
    private var groundAcceleration = GroundAcceleration()

    init(
        port: any SerialPort, decoder: Decoder, pulse: (any DigitalInput)?, clock: any MonotonicClock,
        fixes: SPSCRing<GPSFix>, sky: SPSCRing<SkyItem>, sentences: SPSCRing<RawSentence>
    ) {
        self.port = port
        self.decoder = decoder
        pulseLine = pulse
        self.clock = clock
        self.fixes = fixes
        self.sky = sky
        self.sentences = sentences
    }

    deinit { serialBuffer.deallocate() }

    /// The along-course acceleration the receiver's speeds show, m/s^2 (0 when unknown).
    var alongAcceleration: Double { groundAcceleration.value }

    var counts: ReceiverCounts { decoder.counts }

    /// Drains the line and hands each completed fix on; returns the time it read at, or nil
    /// when the port failed (the receiver is then degraded, and nothing more is judged).
    func read(into state: inout NavigationState) -> MonotonicNanoseconds? {
        // The pulses first, so every edge taken is older than `now` and than the bytes read after it.
        if let pulseLine { _ = try? pulseLine.takeEvents { edge in if edge.rising { lastPulse = edge.time } } }
        let now = clock.now()
        while true {
            let count: Int
            do {
                count = try port.read(into: serialBuffer)
            } catch {
                state.gpsHealth = .degraded
                return nil
            }
            if count == 0 { break }
            // A read after a quiet line starts a new burst.
            if lastByteTime == 0 || now &- lastByteTime >= Self.quietLine { (burstBytes, burstStart, burstPulse) = (0, now, lastPulse) }
            burstBytes &+= Int32(truncatingIfNeeded: count)
            lastByteTime = now
            decoder.decode(UnsafeRawBufferPointer(rebasing: serialBuffer[0..<count]), received: now) { event in
                switch event {
                case .fix(let fix): publish(fix, into: &state, at: now)
                case .passThrough(let message): sentences.push(RawSentence(message))
                case .rejected(let total, let reason): (state.gpsRejected, state.gpsRejectedReason) = (total, reason)
                case .satellite(let item): sky.push(item)
                }
            }
        }
        // A quiet line after a burst ends its cycle: the fix goes out now, not with the next burst.
        if lastByteTime != 0, now &- lastByteTime >= Self.quietLine, let fix = decoder.endOfBurst() { publish(fix, into: &state, at: now) }
        return now
    }

    /// The receiver's health at `now`, with fixes asked for every `fixInterval` seconds: a
    /// receiver that has missed about three fixes is not healthy, whatever it said before.
    func judgeHealth(fixInterval: Double, into state: inout NavigationState, at now: MonotonicNanoseconds) {
        fixPace.set(fixInterval, at: now)
        let interval = fixPace.expected(at: now)
        let silence = UInt64(max(3, 3 * interval) * 1e9)
        state.gpsHealth = now &- lastFixTime < silence && lastFixTime != 0 ? .ok : .degraded
    }

    private func publish(_ fix: GPSFix, into state: inout NavigationState, at now: MonotonicNanoseconds) {
        var fix = fix
        // A cycle completed by the next burst's first sentence was read in an earlier burst:
        // its length is not known (0).
        fix.burstBytes = fix.received >= burstStart ? burstBytes : 0
        // A receiver sends a second's sentences within that second of its pulse; an older
        // pulse (a line that stopped pulsing) says nothing of this fix.
        fix.pulse = burstPulse != 0 && fix.received >= burstStart && burstStart &- burstPulse < Self.pulseReach ? burstPulse : 0
        groundAcceleration.add(speed: fix.speed, time: Double(fix.received) / 1e9)
        state.fix = fix
        lastFixTime = now
        fixes.push(fix)
    }

    /// How long the line must be silent after a burst for its cycle to count as complete:
    /// longer than the pauses within a burst, shorter than the gap between a 10 Hz receiver's.
    static var quietLine: MonotonicNanoseconds { 60_000_000 }
    /// How long after its pulse a burst may begin and still be that second's.
    static var pulseReach: MonotonicNanoseconds { 1_000_000_000 }
}
