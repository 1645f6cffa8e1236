import LodestoneCore

/// Deflate with the fixed Huffman codes (RFC 1951, 3.2.6): raw, in a zlib wrapper (RFC 1950:
/// PNG) or in a gzip member (RFC 1952: HTTP's `Content-Encoding: gzip`).
package enum Deflate {
    /// One final block with the fixed codes.
    package static func raw(_ data: [UInt8], after prefix: [UInt8] = []) -> [UInt8] {
        var bits = BitWriter()
        bits.bytes = prefix
        bits.write(1, count: 1)  // the final block
        bits.write(1, count: 2)  // fixed Huffman codes
        compress(data, into: &bits)
        literal(256, into: &bits)  // end of block
        bits.flush()
        return bits.bytes
    }

    package static func zlib(_ data: [UInt8]) -> [UInt8] {
        // deflate, 32 KiB window, no dictionary, fastest
        var out = raw(data, after: [0x78, 0x01])
        let adler = adler32(data)
        out += [UInt8(adler >> 24), UInt8(truncatingIfNeeded: adler >> 16), UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler)]
        return out
    }

    /// A gzip member: no name, no time, the CRC-32 and the length at the end (little-endian).
    package static func gzip(_ data: [UInt8]) -> [UInt8] {
        var out = raw(data, after: [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255])
        for value in [CRC32.checksum(data), UInt32(truncatingIfNeeded: data.count)] {
            for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        return out
    }

    /// Greedy longest match through a hash of the next three bytes, checking a few candidates.
    static func compress(_ data: [UInt8], into bits: inout BitWriter) {
        let window = 32_768, maxLength = 258, hashSize = 1 << 15
        var head = [Int](repeating: -1, count: hashSize)
        var chain = [Int](repeating: -1, count: data.count)
        func hash(_ i: Int) -> Int { (Int(data[i]) << 10 ^ Int(data[i + 1]) << 5 ^ Int(data[i + 2])) & (hashSize - 1) }
        func insert(_ i: Int) {
            guard i + 2 < data.count else { return }
            let h = hash(i)
            chain[i] = head[h]
            head[h] = i
        }
        var i = 0
        while i < data.count {
            var bestLength = 0, bestDistance = 0
            if i + 2 < data.count {
                var candidate = head[hash(i)], tries = 16
                while candidate >= 0, i - candidate <= window, tries > 0 {
                    var length = 0
                    let limit = min(maxLength, data.count - i)
                    while length < limit, data[candidate + length] == data[i + length] { length += 1 }
                    if length > bestLength { (bestLength, bestDistance) = (length, i - candidate) }
                    if length == limit { break }
                    candidate = chain[candidate]
                    tries -= 1
                }
            }
            if bestLength >= 3 {
                match(length: bestLength, distance: bestDistance, into: &bits)
                for k in i..<(i + bestLength) { insert(k) }
                i += bestLength
            } else {
                literal(Int(data[i]), into: &bits)
                insert(i)
                i += 1
            }
        }
    }

    /// A literal byte or length symbol in the fixed code.
    static func literal(_ symbol: Int, into bits: inout BitWriter) {
        switch symbol {
        case 0...143: bits.writeReversed(0x30 + symbol, count: 8)
        case 144...255: bits.writeReversed(0x190 + symbol - 144, count: 9)
        case 256...279: bits.writeReversed(symbol - 256, count: 7)
        default: bits.writeReversed(0xC0 + symbol - 280, count: 8)
        }
    }

    static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
        4097, 6145, 8193, 12289, 16385, 24577
    ]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    static func match(length: Int, distance: Int, into bits: inout BitWriter) {
        var code = lengthBases.count - 1
        while lengthBases[code] > length { code -= 1 }
        literal(257 + code, into: &bits)
        bits.write(length - lengthBases[code], count: lengthExtra[code])
        var d = distanceBases.count - 1
        while distanceBases[d] > distance { d -= 1 }
        bits.writeReversed(d, count: 5)
        bits.write(distance - distanceBases[d], count: distanceExtra[d])
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}

/// Bits packed least significant first, as deflate stores them.
struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt32 = 0
    private var used = 0

    /// Writes `count` bits of `value`, least significant first (extra bits, headers).
    mutating func write(_ value: Int, count: Int) {
        guard count > 0 else { return }
        buffer |= UInt32(value & ((1 << count) - 1)) << UInt32(used)
        used += count
        while used >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            used -= 8
        }
    }

    /// Writes a Huffman code, which deflate stores most significant bit first.
    mutating func writeReversed(_ code: Int, count: Int) {
        var reversed = 0
        for bit in 0..<count where code & (1 << bit) != 0 { reversed |= 1 << (count - 1 - bit) }
        write(reversed, count: count)
    }

    mutating func flush() {
        if used > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        used = 0
    }
}
