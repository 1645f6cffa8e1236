/// Cuts a byte stream from a GPS receiver into NMEA sentences.
///
/// A sentence starts at `$` (or `!`) and ends at CR or LF. Its bytes are kept in a fixed buffer
/// of `maximumLength` (the standard allows 82 characters; some receivers send a little more):
/// anything longer, and anything with bytes that cannot be in a sentence (binary protocols,
/// line noise, a wrong baud rate), is thrown away and counted. Nothing allocates after `init`.
public struct NMEAFramer: ~Copyable {
    public static let maximumLength = 120
    private let buffer: UnsafeMutablePointer<UInt8>
    private var length = 0
    private var inSentence = false
    /// Lines given up for being too long.
    public private(set) var overlong = 0
    /// Lines given up for containing bytes that are not printable ASCII.
    public private(set) var garbled = 0
    public private(set) var sentences = 0

    public init() {
        buffer = .allocate(capacity: Self.maximumLength)
    }

    deinit { buffer.deallocate() }

    /// Feeds received bytes; `body` is called with each complete sentence (without CR/LF).
    /// The buffer handed to `body` is only valid during the call.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "$"), UInt8(ascii: "!"):
                if inSentence && length > 0 { garbled += 1 }  // a new start inside a sentence: the old one was cut
                inSentence = true
                length = 0
                buffer[length] = byte
                length = 1
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                if inSentence && length > 1 {
                    sentences += 1
                    body(UnsafeBufferPointer(start: buffer, count: length))
                }
                inSentence = false
                length = 0
            case 0x20...0x7E:
                guard inSentence else { continue }
                if length == Self.maximumLength {
                    overlong += 1
                    inSentence = false
                    length = 0
                } else {
                    buffer[length] = byte
                    length += 1
                }
            default:
                if inSentence { garbled += 1 }
                inSentence = false
                length = 0
            }
        }
    }
}
