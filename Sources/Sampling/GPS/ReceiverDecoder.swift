import LodestoneCore

/// One protocol a receiver speaks, framed and parsed on the sampling thread: NMEA 0183 now;
/// u-blox UBX (binary, mixed into the same byte stream) and AIS are meant to sit beside it, each
/// a decoder of its own that `GPSReader` drives the same way.
///
/// A class, so that the framer's callback can reach the parser while the framer runs (two
/// stored properties of one object, not two parts of one value borrowed at once). `GPSReader`
/// is generic over it, so the sampling loop calls the concrete decoder directly.
protocol ReceiverDecoder: AnyObject {
    /// Frames and parses `bytes` received at `received`, telling `event` what each message
    /// brought, in the order the messages came.
    func decode(_ bytes: UnsafeRawBufferPointer, received: MonotonicNanoseconds, _ event: (ReceiverEvent) -> Void)
    /// The cycle a quiet line completed, if one is waiting.
    func endOfBurst() -> GPSFix?
    /// What the decoder has accepted and refused so far.
    var counts: ReceiverCounts { get }
}

/// What one framed message brought, for `GPSReader` to hand on.
enum ReceiverEvent {
    /// A receiver's cycle completed into a fix.
    case fix(GPSFix)
    /// A message that passed every check, its bytes as received (valid only during the call).
    case passThrough(UnsafeBufferPointer<UInt8>)
    /// A message dropped whole for a field no receiver can send: the total so far and the last reason.
    case rejected(total: Int, reason: ImpossibleGPSField?)
    /// One satellite of a completed view (the last one ends the cycle).
    case satellite(SkyItem)
}

/// A decoder's tallies, for introspection and the bench.
struct ReceiverCounts: Equatable {
    var accepted = 0
    var rejected = 0
    /// Messages given up for being too long for the framer's buffer.
    var overlong = 0
    /// Messages given up for bytes that cannot be in one (line noise, a wrong baud rate).
    var garbled = 0
}
