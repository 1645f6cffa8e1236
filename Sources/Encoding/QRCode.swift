/// A QR Code symbol (ISO/IEC 18004, model 2) of some bytes: byte mode, error correction level
/// M (about 15% of the symbol may be lost), the smallest version of 1 to 10 that holds them
/// (up to 213 bytes: a URL with a pairing code takes 40 to 100), and of the eight masks the
/// one the standard's penalty rules score lowest.
///
/// What the symbol holds, in order: the finder patterns in three corners with their light
/// separators, the timing rows, the alignment patterns, the format information (the level and
/// the mask, twice), from version 7 the version information (twice), and the data and error
/// correction codewords, split into Reed-Solomon blocks and interleaved, placed two columns at
/// a time from the bottom right corner upwards and downwards in turn.
public struct QRCode: Sendable, Equatable {
    public let version: Int
    /// Modules per side: 21 for version 1, 4 more per version.
    public let size: Int
    public private(set) var mask = 0
    /// Row by row; true is a dark module.
    private var modules: [Bool]
    private var reserved: [Bool]

    /// The error correction codewords per block, and the blocks, at level M for versions 1-10.
    static let correctionPerBlock = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26]
    static let blocks = [1, 1, 1, 2, 2, 4, 4, 4, 5, 5]
    /// The largest version this encoder writes.
    public static let largestVersion = 10

    /// Whether the module at column `x`, row `y` is dark (outside the symbol: light, the quiet zone).
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// The symbol of `bytes`; nil when they are more than version 10 at level M holds.
    public init?(_ bytes: [UInt8]) {
        guard let version = (1...Self.largestVersion).first(where: { Self.dataCapacityBits($0) >= Self.bitsNeeded(bytes.count, version: $0) }) else {
            return nil
        }
        self.version = version
        size = 17 + 4 * version
        modules = [Bool](repeating: false, count: size * size)
        reserved = [Bool](repeating: false, count: size * size)
        drawFunctionPatterns()
        let codewords = Self.interleaved(Self.dataCodewords(bytes, version: version), version: version)
        placeData(codewords)
        // Each mask in turn on the data modules, with its format information; the lowest
        // penalty wins (the first on a tie).
        var best: (mask: Int, penalty: Int, modules: [Bool])?
        for candidate in 0..<8 {
            var trial = self
            trial.applyMask(candidate)
            trial.drawFormat(mask: candidate)
            let penalty = trial.penalty()
            if best.map({ penalty < $0.penalty }) ?? true { best = (candidate, penalty, trial.modules) }
        }
        mask = best?.mask ?? 0
        if let best { modules = best.modules }
    }

    // MARK: Codewords

    static func bitsNeeded(_ count: Int, version: Int) -> Int { 4 + (version < 10 ? 8 : 16) + 8 * count }

    /// The data codewords' bits a version holds at level M: its modules less the function
    /// patterns', whole codewords, less the error correction.
    static func dataCapacityBits(_ version: Int) -> Int {
        (totalCodewords(version) - correctionPerBlock[version - 1] * blocks[version - 1]) * 8
    }

    /// Every codeword the symbol holds: its modules that no function pattern takes, in whole
    /// bytes (what is left over are the remainder bits, light before masking).
    static func totalCodewords(_ version: Int) -> Int {
        var empty = QRCode(emptyOf: version)
        empty.drawFunctionPatterns()
        return empty.reserved.filter { !$0 }.count / 8
    }

    private init(emptyOf version: Int) {
        (self.version, size) = (version, 17 + 4 * version)
        modules = [Bool](repeating: false, count: size * size)
        reserved = modules
    }

    /// The bit stream (byte mode, the count, the bytes, the terminator) padded to the version's
    /// data codewords with 0xEC and 0x11 in turn.
    static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) { for i in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> i) & 1 == 1) } }
        append(0b0100, 4)
        append(bytes.count, version < 10 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        let capacity = dataCapacityBits(version)
        append(0, min(4, capacity - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<(start + 8)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacity / 8 {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// The data split into the version's blocks (the later ones a codeword longer where the
    /// split is uneven), each with its Reed-Solomon codewords; then the blocks' data
    /// interleaved codeword by codeword, then their error correction.
    static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
        let count = blocks[version - 1], correction = correctionPerBlock[version - 1]
        let short = data.count / count, longer = data.count % count
        var pieces: [[UInt8]] = []
        var start = 0
        for block in 0..<count {
            let length = short + (block >= count - longer ? 1 : 0)
            pieces.append(Array(data[start..<(start + length)]))
            start += length
        }
        let corrections = pieces.map { ReedSolomon.remainder($0, degree: correction) }
        var out: [UInt8] = []
        for i in 0...short {
            for piece in pieces where i < piece.count { out.append(piece[i]) }
        }
        for i in 0..<correction {
            for ec in corrections { out.append(ec[i]) }
        }
        return out
    }

    // MARK: Function patterns

    private mutating func set(_ x: Int, _ y: Int, _ dark: Bool, function: Bool = true) {
        guard x >= 0, y >= 0, x < size, y < size else { return }
        modules[y * size + x] = dark
        if function { reserved[y * size + x] = true }
    }

    /// The alignment patterns' centres along each axis.
    var alignmentCentres: [Int] {
        guard version >= 2 else { return [] }
        let count = version / 7 + 2
        let last = size - 7
        // Evenly spaced from 6 to the last, the steps even (the standard's table for 2 to 10).
        let step = version == 32 ? 26 : ((last - 6) / (count - 1) + 1) & ~1
        return [6] + (0..<(count - 1)).map { last - $0 * step }.reversed()
    }

    mutating func drawFunctionPatterns() {
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 {
                    let distance = max(abs(dx), abs(dy))
                    set(cx + dx, cy + dy, distance != 2 && distance != 4)
                }
            }
        }
        let centres = alignmentCentres
        for cy in centres {
            for cx in centres {
                // Not over the finders.
                if (cx == 6 && cy == 6) || (cx == 6 && cy == size - 7) || (cx == size - 7 && cy == 6) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormat(mask: 0)
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for i in 0..<18 {
                let dark = (bits >> i) & 1 == 1
                let a = size - 11 + i % 3, b = i / 3
                set(a, b, dark)
                set(b, a, dark)
            }
        }
    }

    /// The format information: level M (00) and the mask, with its BCH(15,5) bits and the
    /// standard's XOR, in its two places; and the one dark module beside the lower one.
    mutating func drawFormat(mask: Int) {
        let data = 0b00 << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { set(8, i, bit(i)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for i in 9..<15 { set(14 - i, 8, bit(i)) }
        for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
        set(8, size - 8, true)
    }

    // MARK: Data and masks

    /// The codewords' bits, most significant first, up and down two columns at a time from the
    /// right, stepping over the vertical timing column.
    mutating func placeData(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    guard !reserved[y * size + x] else { continue }
                    if index < codewords.count * 8 {
                        set(x, y, (codewords[index >> 3] >> (7 - UInt8(index & 7))) & 1 == 1, function: false)
                    }
                    index += 1
                }
            }
            right -= 2
        }
    }

    static func masked(_ mask: Int, _ x: Int, _ y: Int) -> Bool {
        switch mask {
        case 0: return (x + y) % 2 == 0
        case 1: return y % 2 == 0
        case 2: return x % 3 == 0
        case 3: return (x + y) % 3 == 0
        case 4: return (x / 3 + y / 2) % 2 == 0
        case 5: return x * y % 2 + x * y % 3 == 0
        case 6: return (x * y % 2 + x * y % 3) % 2 == 0
        default: return ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }

    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !reserved[y * size + x] && Self.masked(mask, x, y) { modules[y * size + x].toggle() }
        }
    }

    /// The standard's penalty: runs of five or more of a colour in a row or column (3, and 1
    /// more for each beyond five), 2x2 blocks of a colour (3 each), finder-like 1:1:3:1:1
    /// patterns with four light modules on a side (40 each), and the dark share's distance
    /// from half (10 for each 5%).
    func penalty() -> Int {
        var total = 0
        for line in 0..<size {
            for horizontal in [true, false] {
                var run = 0
                var previous: Bool?
                var pattern = 0  // the last 11 modules as bits, dark 1
                for i in 0..<size {
                    let dark = horizontal ? self[i, line] : self[line, i]
                    if dark == previous {
                        run += 1
                    } else {
                        if run >= 5 { total += run - 2 }
                        run = 1
                        previous = dark
                    }
                    pattern = (pattern << 1 | (dark ? 1 : 0)) & 0x7FF
                    if i >= 10, pattern == 0b000_0101_1101 || pattern == 0b101_1101_0000 { total += 40 }
                }
                if run >= 5 { total += run - 2 }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let dark = self[x, y]
                if self[x + 1, y] == dark && self[x, y + 1] == dark && self[x + 1, y + 1] == dark { total += 3 }
            }
        }
        let dark = modules.filter { $0 }.count
        total += abs(dark * 20 - size * size * 10) / (size * size) * 10
        return total
    }
}

/// Reed-Solomon error correction over GF(256) with the QR Code's field polynomial
/// x^8 + x^4 + x^3 + x^2 + 1 (0x11D), generator roots α^0 ... α^(n-1).
enum ReedSolomon {
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var result: UInt8 = 0
        var a = a, b = b
        while b != 0 {
            if b & 1 == 1 { result ^= a }
            let carry = a & 0x80 != 0
            a <<= 1
            if carry { a ^= 0x1D }
            b >>= 1
        }
        return result
    }

    /// The generator polynomial of `degree`, its coefficients from the highest power down
    /// (the leading 1 left out).
    static func generator(degree: Int) -> [UInt8] {
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<degree {
                coefficients[j] = multiply(coefficients[j], root)
                if j + 1 < degree { coefficients[j] ^= coefficients[j + 1] }
            }
            root = multiply(root, 2)
        }
        return coefficients
    }

    /// The `degree` error correction codewords of `data`: its remainder by the generator.
    static func remainder(_ data: [UInt8], degree: Int) -> [UInt8] {
        let generator = generator(degree: degree)
        var result = [UInt8](repeating: 0, count: degree)
        for byte in data {
            let factor = byte ^ result[0]
            result.removeFirst()
            result.append(0)
            for i in 0..<degree { result[i] ^= multiply(generator[i], factor) }
        }
        return result
    }
}
