/// Deflate decompression (RFC 1951): stored, fixed-Huffman and dynamic-Huffman blocks, as zip
/// archives (GTFS feeds) and zlib streams hold them. Every length, distance and code is checked
/// against what is there, and the output is bounded, so a damaged or hostile archive is refused
/// with a reason, never a crash or a memory blow-up.
public enum Inflate {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
        /// Set when the output went past the limit given (rather than the data being damaged).
        public var isPastLimit = false
        init(_ description: String, isPastLimit: Bool = false) { (self.description, self.isPastLimit) = (description, isPastLimit) }
    }

    /// The bytes a raw deflate stream holds; at most `limit` of them.
    public static func raw(_ data: ArraySlice<UInt8>, limit: Int) throws(Failure) -> [UInt8] {
        var whole: [UInt8] = []
        try stream(data, limit: limit) { piece in
            whole.append(contentsOf: piece)
            return true
        }
        return whole
    }

    /// Inflates a raw deflate stream piece by piece: `reader` gets each piece as it is made
    /// (and returns false to stop, which throws), and only the 32 KiB window that matches copy
    /// from is kept, so an entry of any size passes through a fixed amount of memory. More than
    /// `limit` bytes in all is refused as soon as the stream goes past it.
    public static func stream(_ data: ArraySlice<UInt8>, limit: Int, reader: @escaping (ArraySlice<UInt8>) -> Bool) throws(Failure) {
        var bits = BitReader(data)
        var out = Output(limit: limit, reader: reader)
        var last = false
        while !last {
            last = try bits.bits(1) == 1
            switch try bits.bits(2) {
            case 0: try stored(&bits, into: &out)
            case 1: try codes(&bits, literal: fixedLiteral, distance: fixedDistance, into: &out)
            case 2:
                let (literal, distance) = try dynamicTables(&bits)
                try codes(&bits, literal: literal, distance: distance, into: &out)
            default: throw Failure("a deflate block of the reserved type 3")
            }
        }
        try out.hand()
    }

    /// What has been inflated: the window that matches may reach back into, and what the
    /// reader has not been handed yet.
    package struct Output {
        /// The farthest back a deflate match reaches.
        static let window = 32_768
        /// How much is handed to the reader at once.
        package static let piece = 1 << 18
        var bytes: [UInt8] = []
        /// bytes[..<handed] have been handed to the reader.
        var handed = 0
        /// Bytes dropped from the front after they were handed.
        var dropped = 0
        let limit: Int
        let reader: (ArraySlice<UInt8>) -> Bool

        init(limit: Int, reader: @escaping (ArraySlice<UInt8>) -> Bool) {
            (self.limit, self.reader) = (limit, reader)
            bytes.reserveCapacity(Self.piece + Self.window + 65_536)
        }

        /// Throws unless `count` more bytes stay within the limit.
        func room(_ count: Int) throws(Failure) {
            guard dropped + bytes.count + count <= limit else {
                throw Failure("more than \(limit) bytes: refused (the archive is damaged or a bomb)", isPastLimit: true)
            }
        }

        /// Hands over a full piece and keeps only the window.
        mutating func settle() throws(Failure) {
            guard bytes.count >= Self.piece + Self.window else { return }
            try hand()
            let drop = bytes.count - Self.window
            bytes.removeFirst(drop)
            dropped += drop
            handed = bytes.count
        }

        /// Hands over everything not yet handed.
        mutating func hand() throws(Failure) {
            guard handed < bytes.count else { return }
            guard reader(bytes[handed...]) else { throw Failure("the reader stopped") }
            handed = bytes.count
        }
    }

    /// A zlib stream (RFC 1950): its header checked, its deflate data inflated, its Adler-32 checked.
    public static func zlib(_ data: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        guard data.count >= 6, data[0] & 0x0F == 8, (Int(data[0]) << 8 | Int(data[1])) % 31 == 0, data[1] & 0x20 == 0 else {
            throw Failure("not a zlib stream (its header is wrong)")
        }
        let out = try raw(data[2...], limit: limit)
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in out { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        let tail = data.suffix(4)
        let stored = tail.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard stored == b << 16 | a else { throw Failure("the zlib stream's Adler-32 does not match its data") }
        return out
    }

    struct BitReader {
        let data: ArraySlice<UInt8>
        var index: Int
        var buffer: UInt64 = 0
        var count = 0

        init(_ data: ArraySlice<UInt8>) { (self.data, index) = (data, data.startIndex) }

        mutating func need(_ n: Int) throws(Failure) {
            while count < n {
                guard index < data.endIndex else { throw Failure("the deflate data ends early") }
                buffer |= UInt64(data[index]) << UInt64(count)
                index += 1
                count += 8
            }
        }

        mutating func bits(_ n: Int) throws(Failure) -> Int {
            guard n > 0 else { return 0 }
            try need(n)
            let value = Int(buffer & ((1 << UInt64(n)) - 1))
            buffer >>= UInt64(n)
            count -= n
            return value
        }

        /// Drops the bits left in the current byte (a stored block starts on a byte boundary).
        mutating func align() {
            let drop = count % 8
            buffer >>= UInt64(drop)
            count -= drop
        }
    }

    /// A canonical Huffman code: how many codes of each length, and the symbols in code order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        /// A code with no symbols (decoding any bits with it fails).
        init() {}

        init(lengths: [Int]) throws(Failure) {
            for length in lengths {
                guard (0...15).contains(length) else { throw Failure("a code length of \(length)") }
                counts[length] += 1
            }
            counts[0] = 0
            var left = 1
            for length in 1...15 {
                left = left * 2 - counts[length]
                guard left >= 0 else { throw Failure("a Huffman code with too many codes of length \(length)") }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length > 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        /// Decodes one symbol, a bit at a time from the first code of each length.
        func decode(_ reader: inout BitReader) throws(Failure) -> Int {
            var code = 0, first = 0, index = 0
            for length in 1...15 {
                code |= try reader.bits(1)
                let count = counts[length]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw Failure("a Huffman code that is not in the table")
        }
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
        4097, 6145, 8193, 12_289, 16_385, 24_577
    ]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// The fixed codes of RFC 1951 3.2.6 (their lengths are sound, so building them cannot fail).
    static let fixedLiteral: Huffman =
        (try? Huffman(
            lengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
                + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8))) ?? emptyCode
    static let fixedDistance: Huffman = (try? Huffman(lengths: [Int](repeating: 5, count: 30))) ?? emptyCode
    static let emptyCode = Huffman()

    static func stored(_ reader: inout BitReader, into out: inout Output) throws(Failure) {
        reader.align()
        let length = try reader.bits(16), complement = try reader.bits(16)
        guard length == ~complement & 0xFFFF else { throw Failure("a stored block whose length and its complement disagree") }
        try out.room(length)
        // Whole bytes may still sit in the bit buffer; take them first.
        var remaining = length
        while remaining > 0 && reader.count >= 8 {
            out.bytes.append(UInt8(try reader.bits(8)))
            remaining -= 1
        }
        guard reader.data.endIndex - reader.index >= remaining else { throw Failure("a stored block runs past the end of the data") }
        out.bytes.append(contentsOf: reader.data[reader.index..<(reader.index + remaining)])
        reader.index += remaining
        try out.settle()
    }

    static func dynamicTables(_ reader: inout BitReader) throws(Failure) -> (Huffman, Huffman) {
        let literals = try reader.bits(5) + 257, distances = try reader.bits(5) + 1, codeLengths = try reader.bits(4) + 4
        guard literals <= 286, distances <= 30 else { throw Failure("a dynamic block with too many codes") }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var lengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengths { lengths[order[index]] = try reader.bits(3) }
        let lengthCode = try Huffman(lengths: lengths)
        var all: [Int] = []
        all.reserveCapacity(literals + distances)
        while all.count < literals + distances {
            let symbol = try lengthCode.decode(&reader)
            switch symbol {
            case 0...15: all.append(symbol)
            case 16:
                guard let previous = all.last else { throw Failure("a length repeated before any length") }
                all += [Int](repeating: previous, count: 3 + (try reader.bits(2)))
            case 17: all += [Int](repeating: 0, count: 3 + (try reader.bits(3)))
            default: all += [Int](repeating: 0, count: 11 + (try reader.bits(7)))
            }
        }
        guard all.count == literals + distances else { throw Failure("code lengths that run past their count") }
        guard all[256] > 0 else { throw Failure("a dynamic block without an end-of-block code") }
        return (try Huffman(lengths: Array(all[0..<literals])), try Huffman(lengths: Array(all[literals...])))
    }

    static func codes(_ reader: inout BitReader, literal: Huffman, distance: Huffman, into out: inout Output) throws(Failure) {
        while true {
            let symbol = try literal.decode(&reader)
            if symbol < 256 {
                try out.room(1)
                out.bytes.append(UInt8(symbol))
                try out.settle()
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < lengthBase.count else { throw Failure("a length code \(symbol) past the table") }
            let length = lengthBase[lengthIndex] + (try reader.bits(lengthExtra[lengthIndex]))
            let distanceIndex = try distance.decode(&reader)
            guard distanceIndex < distanceBase.count else { throw Failure("a distance code \(distanceIndex) past the table") }
            let back = distanceBase[distanceIndex] + (try reader.bits(distanceExtra[distanceIndex]))
            // The window holds at least the last 32 KiB (all of it before the first piece is
            // handed over), as far as a distance reaches.
            guard back <= out.bytes.count else { throw Failure("a distance of \(back) before the start of the data") }
            try out.room(length)
            let start = out.bytes.count - back
            for offset in 0..<length { out.bytes.append(out.bytes[start + offset]) }
            try out.settle()
        }
    }
}
