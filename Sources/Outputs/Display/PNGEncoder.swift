import LodestoneCore
import LodestoneHAL
import LodestoneEncoding

/// PNG files (ISO/IEC 15948) of a framebuffer's frame: 8-bit RGB, each row filtered with the
/// "up" filter (a screen's rows repeat, so most bytes become zero), compressed with deflate
/// (RFC 1951) using the fixed Huffman codes and a simple longest-match search.
public enum PNGEncoder {
    public static func encode(_ frame: any Framebuffer) -> [UInt8] {
        let width = frame.width, height = frame.height
        var raw: [UInt8] = []
        raw.reserveCapacity((width * 3 + 1) * height)
        var previous = [UInt8](repeating: 0, count: width * 3)
        var current = previous
        for y in 0..<height {
            for x in 0..<width {
                let p = frame.get(x: x, y: y)
                current[3 * x] = p.red
                current[3 * x + 1] = p.green
                current[3 * x + 2] = p.blue
            }
            raw.append(2)  // filter type 2, "up"
            for i in 0..<current.count { raw.append(current[i] &- previous[i]) }
            swap(&previous, &current)
        }
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, 2, 0, 0, 0]  // 8 bits, truecolour, deflate, adaptive filtering, no interlace
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        chunk("IHDR", header, to: &out)
        chunk("IDAT", Deflate.zlib(raw), to: &out)
        chunk("IEND", [], to: &out)
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &out)
        let body = Array(type.utf8) + data
        out += body
        appendBigEndian(CRC32.checksum(body), to: &out)
    }

    static func appendBigEndian(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
