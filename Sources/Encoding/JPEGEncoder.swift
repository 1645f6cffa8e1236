import Glibc

/// Baseline JPEG (ITU-T T.81, JFIF) for a camera's frames that do not come as JPEG already:
/// RGB or YUYV in, YCbCr with all three components at full resolution (4:4:4), the standard's
/// example quantisation tables scaled by `quality` as the IJG scale them, its example Huffman
/// tables (Annex K), one scan. An APP1 segment (the EXIF block) goes right after SOI when given.
public enum JPEGEncoder {
    /// RGB, three bytes a pixel, row by row.
    public static func encode(width: Int, height: Int, rgb: [UInt8], quality: Int = 85, app1: [UInt8]? = nil) -> [UInt8]? {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384, rgb.count >= width * height * 3 else { return nil }
        return encodeRGB(width: width, height: height, quality: quality, app1: app1) { x, y in
            let i = (y * width + x) * 3
            return (Double(rgb[i]), Double(rgb[i + 1]), Double(rgb[i + 2]))
        }
    }

    /// YUYV (YUY2): two pixels in four bytes, Y0 U Y1 V, row by row; `width` even.
    public static func encode(width: Int, height: Int, yuyv: [UInt8], quality: Int = 85, app1: [UInt8]? = nil) -> [UInt8]? {
        guard width > 0, height > 0, width % 2 == 0, width <= 16_384, height <= 16_384, yuyv.count >= width * height * 2 else { return nil }
        return encodeYCbCr(width: width, height: height, quality: quality, app1: app1) { x, y in
            let pair = (y * width + (x & ~1)) * 2
            // BT.601's limited range (16-235) to JPEG's full range.
            let luma = (Double(yuyv[pair + (x & 1) * 2]) - 16) * 255 / 219
            return (luma, (Double(yuyv[pair + 1]) - 128) * 255 / 224 + 128, (Double(yuyv[pair + 3]) - 128) * 255 / 224 + 128)
        }
    }

    static func encodeRGB(
        width: Int, height: Int, quality: Int, app1: [UInt8]?,
        rgb pixel: (Int, Int) -> (Double, Double, Double)
    ) -> [UInt8] {
        encodeYCbCr(width: width, height: height, quality: quality, app1: app1) { x, y in
            let (r, g, b) = pixel(x, y)
            // JFIF's conversion (full range).
            return (0.299 * r + 0.587 * g + 0.114 * b, 128 - 0.168736 * r - 0.331264 * g + 0.5 * b, 128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
        }
    }

    static func encodeYCbCr(
        width: Int, height: Int, quality: Int, app1: [UInt8]?,
        _ pixel: (Int, Int) -> (Double, Double, Double)
    ) -> [UInt8] {
        let tables = [scaled(JPEGTables.luminanceQuantisation, quality), scaled(JPEGTables.chrominanceQuantisation, quality)]
        var out: [UInt8] = [0xFF, 0xD8]
        if let app1 {
            segment(0xE1, app1, into: &out)
        } else {
            // JFIF APP0: version 1.01, no density given (aspect 1:1), no thumbnail.
            segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0], into: &out)
        }
        var dqt: [UInt8] = []
        for (id, table) in tables.enumerated() { dqt.append(UInt8(id)); dqt += JPEGTables.zigzag.map { table[$0] } }
        segment(0xDB, dqt, into: &out)
        segment(
            0xC0,
            [
                8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3,
                1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1
            ], into: &out)
        out += huffmanSegment()
        segment(0xDA, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0], into: &out)

        let codes = [JPEGTables.dcLuminance.codes, JPEGTables.acLuminance.codes, JPEGTables.dcChrominance.codes, JPEGTables.acChrominance.codes]
        var writer = BitWriter()
        var previousDC = [0, 0, 0]
        var block = [[Double]](repeating: [Double](repeating: 0, count: 64), count: 3)
        for top in stride(from: 0, to: height, by: 8) {
            for left in stride(from: 0, to: width, by: 8) {
                // The block's samples, the edges repeated past the picture.
                for y in 0..<8 {
                    for x in 0..<8 {
                        let (l, cb, cr) = pixel(min(left + x, width - 1), min(top + y, height - 1))
                        block[0][y * 8 + x] = l - 128
                        block[1][y * 8 + x] = cb - 128
                        block[2][y * 8 + x] = cr - 128
                    }
                }
                for component in 0..<3 {
                    let table = tables[component == 0 ? 0 : 1]
                    let coefficients = DCT.forward(block[component]).enumerated().map { index, value in
                        Int((value / Double(table[index])).rounded())
                    }
                    let dc = codes[component == 0 ? 0 : 2], ac = codes[component == 0 ? 1 : 3]
                    let difference = coefficients[0] - previousDC[component]
                    previousDC[component] = coefficients[0]
                    let (size, bits) = magnitude(difference)
                    writer.write(dc[size])
                    writer.write((bits, size))
                    var run = 0
                    for position in 1..<64 {
                        let value = coefficients[JPEGTables.zigzag[position]]
                        if value == 0 { run += 1; continue }
                        while run > 15 { writer.write(ac[0xF0]); run -= 16 }
                        let (size, bits) = magnitude(value)
                        writer.write(ac[run << 4 | size])
                        writer.write((bits, size))
                        run = 0
                    }
                    if run > 0 { writer.write(ac[0x00]) }
                }
            }
        }
        out += writer.finished()
        out += [0xFF, 0xD9]
        return out
    }

    /// A value's size category and its bits (negative values as the one's complement).
    static func magnitude(_ value: Int) -> (size: Int, bits: Int) {
        guard value != 0 else { return (0, 0) }
        let size = Int.bitWidth - abs(value).leadingZeroBitCount
        return (size, value > 0 ? value : value + (1 << size) - 1)
    }

    /// The example table scaled as the IJG library scales it: 50 is the table itself.
    static func scaled(_ table: [Int], _ quality: Int) -> [UInt8] {
        let q = max(1, min(100, quality))
        let scale = q < 50 ? 5000 / q : 200 - 2 * q
        return table.map { UInt8(max(1, min(255, ($0 * scale + 50) / 100))) }
    }

    static func segment(_ marker: UInt8, _ body: [UInt8], into out: inout [UInt8]) {
        let length = body.count + 2
        out += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }

    /// The entropy-coded bits, most significant first, with a 0x00 stuffed after every 0xFF.
    struct BitWriter {
        var bytes: [UInt8] = []
        var accumulator = 0, count = 0

        mutating func write(_ code: (bits: Int, length: Int)) {
            guard code.length > 0 else { return }
            accumulator = accumulator << code.length | (code.bits & ((1 << code.length) - 1))
            count += code.length
            while count >= 8 {
                let byte = UInt8((accumulator >> (count - 8)) & 0xFF)
                bytes.append(byte)
                if byte == 0xFF { bytes.append(0) }
                count -= 8
            }
            accumulator &= (1 << count) - 1
        }

        /// The last byte padded with ones, as the standard asks.
        mutating func finished() -> [UInt8] {
            if count > 0 { write(((1 << (8 - count)) - 1, 8 - count)) }
            return bytes
        }
    }
}

/// The 8 x 8 forward DCT of T.81's A.3.3, separable, with the cosines worked out once.
enum DCT {
    static let cosines: [Double] = (0..<64).map { index in
        let (u, x) = (index / 8, index % 8)
        return (u == 0 ? 1 / 2.0.squareRoot() : 1) * cos(Double(2 * x + 1) * Double(u) * .pi / 16) / 2
    }

    static func forward(_ samples: [Double]) -> [Double] {
        var rows = [Double](repeating: 0, count: 64)
        for y in 0..<8 {
            for u in 0..<8 {
                var sum = 0.0
                for x in 0..<8 { sum += samples[y * 8 + x] * cosines[u * 8 + x] }
                rows[y * 8 + u] = sum
            }
        }
        var out = [Double](repeating: 0, count: 64)
        for u in 0..<8 {
            for v in 0..<8 {
                var sum = 0.0
                for y in 0..<8 { sum += rows[y * 8 + u] * cosines[v * 8 + y] }
                out[v * 8 + u] = sum
            }
        }
        return out
    }
}

extension JPEGEncoder {
    /// A camera's own JPEG (MJPEG) with `app1` (the EXIF block) right after SOI, in place of any
    /// EXIF it had; the standard Huffman tables put before the scan when the frame leaves them
    /// out (as many MJPEG cameras do, MJPEG assuming them). Nil for bytes that are not a JPEG.
    public static func insertingEXIF(_ jpeg: [UInt8], app1: [UInt8]) -> [UInt8]? {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var out: [UInt8] = [0xFF, 0xD8]
        segment(0xE1, app1, into: &out)
        var index = 2, sawTables = false
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            if marker == 0xDA {
                if !sawTables { out += huffmanSegment() }
                out += jpeg[index...]
                return out
            }
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            guard length >= 2, index + 2 + length <= jpeg.count else { return nil }
            if marker == 0xC4 { sawTables = true }
            let isEXIF = marker == 0xE1 && length >= 8 && Array(jpeg[(index + 4)..<(index + 8)]) == Array("Exif".utf8)
            if !isEXIF { out += jpeg[index..<(index + 2 + length)] }
            index += 2 + length
        }
        return nil
    }

    /// A DHT segment with the four tables of Annex K.3.
    static func huffmanSegment() -> [UInt8] {
        var dht: [UInt8] = []
        for (class_, id, spec) in [
            (0, 0, JPEGTables.dcLuminance), (1, 0, JPEGTables.acLuminance),
            (0, 1, JPEGTables.dcChrominance), (1, 1, JPEGTables.acChrominance)
        ] {
            dht.append(UInt8(class_ << 4 | id))
            dht += spec.bits + spec.values
        }
        var out: [UInt8] = []
        segment(0xC4, dht, into: &out)
        return out
    }
}
