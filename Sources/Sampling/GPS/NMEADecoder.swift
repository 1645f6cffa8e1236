import LodestoneCore
import LodestoneDevices

/// NMEA 0183 from a receiver's line: `NMEAFramer` cuts the sentences, `NMEAParser` checks and
/// gathers them into fixes and satellite views. Allocation-free after `init`.
final class NMEADecoder: ReceiverDecoder {
    private var framer = NMEAFramer()
    private var parser = NMEAParser()
    /// The parser's satellite cycles already handed on.
    private var skyCycles = 0

    init() {}

    func decode(_ bytes: UnsafeRawBufferPointer, received: MonotonicNanoseconds, _ event: (ReceiverEvent) -> Void) {
        framer.feed(bytes) { sentence in
            let dropped = parser.outOfLimits
            if let fix = parser.parse(sentence, received: received) { event(.fix(fix)) }
            // A sentence dropped for an impossible field is not passed on raw either.
            if parser.outOfLimits == dropped {
                event(.passThrough(sentence))
            } else {
                event(.rejected(total: parser.outOfLimits, reason: parser.lastOutOfLimits))
            }
            if parser.skyCycles != skyCycles {
                skyCycles = parser.skyCycles
                let sky = parser.sky, fix = parser.fix
                for index in 0..<sky.count {
                    event(
                        .satellite(
                            SkyItem(
                                satellite: sky[index], endsCycle: index == sky.count - 1,
                                hdop: fix.hdop, pdop: fix.pdop, vdop: fix.vdop)))
                }
            }
        }
    }

    func endOfBurst() -> GPSFix? { parser.endOfBurst() }

    var counts: ReceiverCounts {
        ReceiverCounts(accepted: parser.accepted, rejected: parser.rejected, overlong: framer.overlong, garbled: framer.garbled)
    }
}
