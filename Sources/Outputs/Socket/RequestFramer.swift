/// Where a client's request ends, as gpsd reads them: at a newline, or at the `;` that closes
/// a `?NAME;` or `?NAME={...};` outside the JSON argument's strings and braces. A client that
/// writes `?WATCH={"enable":true};` and no newline (libraries that send bare commands) is
/// answered at once.
struct RequestFramer {
    private var depth = 0
    private var inString = false
    private var escaped = false

    /// Takes the next byte of the request being read (already in the inbox when it is not the
    /// end); true when it ends the request.
    mutating func ends(at byte: UInt8) -> Bool {
        if byte == UInt8(ascii: "\n") {
            reset()
            return true
        }
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            return false
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"): depth += 1
        case UInt8(ascii: "}"): depth = max(0, depth - 1)
        case UInt8(ascii: ";") where depth == 0:
            reset()
            return true
        default: break
        }
        return false
    }

    mutating func reset() { (depth, inString, escaped) = (0, false, false) }
}
