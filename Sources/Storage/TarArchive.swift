/// A POSIX ustar archive (IEEE 1003.1-1988): every file a 512-byte header (name, mode, size
/// and time in octal, a checksum of the header) and its bytes padded to 512, the archive
/// closed by two empty blocks. Any tar, and every desktop's archive tool, reads it.
struct TarArchive {
    private(set) var bytes: [UInt8] = []
    private(set) var files = 0

    /// Adds a regular file; `name` is at most 100 bytes ("tracks/20260621-080000.gpx").
    mutating func add(_ name: String, _ content: [UInt8], modified: Double) {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int, length: Int) {
            for (index, byte) in text.utf8.prefix(length).enumerated() { header[offset + index] = byte }
        }
        func octal(_ value: Int, at offset: Int, length: Int) {
            let digits = String(max(0, value), radix: 8)
            put(String(repeating: "0", count: max(0, length - 1 - digits.count)) + digits, at: offset, length: length - 1)
        }
        put(name, at: 0, length: 100)
        // Private, as the device keeps them: unpacked, a person's records are theirs alone.
        octal(0o600, at: 100, length: 8)
        octal(0, at: 108, length: 8)
        octal(0, at: 116, length: 8)
        octal(content.count, at: 124, length: 12)
        octal(modified.isFinite ? Int(max(0, min(modified, 8_589_934_591))) : 0, at: 136, length: 12)
        put("        ", at: 148, length: 8)
        header[156] = UInt8(ascii: "0")
        put("ustar", at: 257, length: 6)
        put("00", at: 263, length: 2)
        put("lodestone", at: 265, length: 32)
        put("lodestone", at: 297, length: 32)
        let sum = header.reduce(0) { $0 + Int($1) }
        let digits = String(sum, radix: 8)
        put(String(repeating: "0", count: max(0, 6 - digits.count)) + digits, at: 148, length: 6)
        header[154] = 0
        header[155] = UInt8(ascii: " ")
        bytes += header
        bytes += content
        bytes += [UInt8](repeating: 0, count: (512 - content.count % 512) % 512)
        files += 1
    }

    /// The archive with its end (two empty blocks).
    var finished: [UInt8] { bytes + [UInt8](repeating: 0, count: 1024) }
}
