import Glibc
import LodestoneCore
@testable import LodestoneEncoding
import LodestoneStorage
import Testing

/// The photos' JPEG and EXIF, read back by programs that are not ours: Debian's djpeg decodes
/// the pictures (compared with what was encoded), and Python's Pillow reads the EXIF block's
/// time, position, altitude and direction.
@Suite struct PhotoEncodingTests {
    static var djpeg: Bool { access("/usr/bin/djpeg", X_OK) == 0 }
    static var pillow: Bool { Shell.output("/usr/bin/python3 -c 'import PIL; print(\"ok\")'").contains("ok") }

    /// A picture with edges and gradients, its size not a multiple of 8.
    static func picture(width: Int, height: Int) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                rgb[i] = UInt8(x * 255 / max(1, width - 1))
                rgb[i + 1] = UInt8(y * 255 / max(1, height - 1))
                rgb[i + 2] = (x / 16 + y / 16) % 2 == 0 ? 40 : 200
            }
        }
        return rgb
    }

    /// djpeg's PPM: the header's three numbers, then the pixels.
    static func decode(_ jpeg: [UInt8], name: String) -> (width: Int, height: Int, rgb: [UInt8])? {
        let path = "/tmp/lodestone-photo-\(name)-\(getpid()).jpg", ppm = path + ".ppm"
        defer { unlink(path); unlink(ppm) }
        guard writeFileAtomically(path, jpeg) else { return nil }
        _ = Shell.output("/usr/bin/djpeg -pnm -outfile \(ppm) \(path)")
        guard let bytes = readFileBytes(ppm) else { return nil }
        var fields: [Int] = [], index = 2, current = ""
        while fields.count < 3, index < bytes.count {
            let c = Character(UnicodeScalar(bytes[index]))
            if c.isWhitespace { if !current.isEmpty { fields.append(Int(current) ?? 0); current = "" } } else { current.append(c) }
            index += 1
        }
        guard fields.count == 3 else { return nil }
        return (fields[0], fields[1], Array(bytes[index...]))
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        let mse = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) } / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    @Test func rgbIsEncodedAsBaselineJPEGThatDecodesToThePicture() throws {
        guard Self.djpeg else { print("skipped: djpeg is not installed (libjpeg-turbo-progs, scripts/install-deps --test)"); return }
        let (width, height) = (70, 45)
        let rgb = Self.picture(width: width, height: height)
        let jpeg = try #require(JPEGEncoder.encode(width: width, height: height, rgb: rgb, quality: 90))
        #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.suffix(2) == [0xFF, 0xD9])
        let decoded = try #require(Self.decode(jpeg, name: "rgb"))
        #expect(decoded.width == width && decoded.height == height)
        let quality = Self.psnr(decoded.rgb, rgb)
        #expect(quality > 30, "PSNR \(quality) dB")
        // A lower quality is smaller and still the picture.
        let small = try #require(JPEGEncoder.encode(width: width, height: height, rgb: rgb, quality: 30))
        #expect(small.count < jpeg.count)
        #expect(Self.psnr(try #require(Self.decode(small, name: "small")).rgb, rgb) > 24)
    }

    @Test func yuyvFramesAreEncodedWithTheirColours() throws {
        guard Self.djpeg else { print("skipped: djpeg is not installed"); return }
        // A YUYV frame of four bars: white, black, red, blue (BT.601 limited range).
        let (width, height) = (64, 16)
        let bars: [(UInt8, UInt8, UInt8)] = [(235, 128, 128), (16, 128, 128), (81, 90, 240), (41, 240, 110)]
        var yuyv = [UInt8](repeating: 0, count: width * height * 2)
        for y in 0..<height {
            for pair in 0..<(width / 2) {
                let (luma, u, v) = bars[pair * 2 / (width / 4)]
                let i = (y * width + pair * 2) * 2
                (yuyv[i], yuyv[i + 1], yuyv[i + 2], yuyv[i + 3]) = (luma, u, luma, v)
            }
        }
        let jpeg = try #require(JPEGEncoder.encode(width: width, height: height, yuyv: yuyv, quality: 95))
        let decoded = try #require(Self.decode(jpeg, name: "yuyv"))
        func pixel(_ x: Int) -> (Int, Int, Int) {
            let i = (8 * width + x) * 3
            return (Int(decoded.rgb[i]), Int(decoded.rgb[i + 1]), Int(decoded.rgb[i + 2]))
        }
        let (white, black, red, blue) = (pixel(8), pixel(24), pixel(40), pixel(56))
        #expect(white.0 > 240 && white.1 > 240 && white.2 > 240, "\(white)")
        #expect(black.0 < 15 && black.1 < 15 && black.2 < 15, "\(black)")
        #expect(red.0 > 230 && red.1 < 30 && red.2 < 30, "\(red)")
        #expect(blue.2 > 230 && blue.0 < 30 && blue.1 < 30, "\(blue)")
        #expect(JPEGEncoder.encode(width: 63, height: 16, yuyv: yuyv) == nil, "YUYV needs an even width")
        #expect(JPEGEncoder.encode(width: 64, height: 16, yuyv: Array(yuyv.prefix(100))) == nil, "a short frame is refused")
    }

    @Test func theEXIFBlockCarriesTimePlaceAndDirection() throws {
        guard Self.djpeg, Self.pillow else { print("skipped: Pillow (python3-pil) or djpeg is not installed"); return }
        let time = CivilTime(year: 2026, month: 6, day: 21, hour: 8, minute: 15, second: 30).unixSeconds
        let app1 = EXIFWriter.app1(
            time: time, place: EXIFWriter.Place(latitude: 47.376_912, longitude: -8.541_694, altitude: 408.25),
            direction: (123.45, true))
        let jpeg = try #require(JPEGEncoder.encode(width: 16, height: 16, rgb: Self.picture(width: 16, height: 16), app1: app1))
        let path = "/tmp/lodestone-exif-\(getpid()).jpg"
        defer { unlink(path) }
        #expect(writeFileAtomically(path, jpeg))
        let script = """
            from PIL import Image
            e = Image.open('\(path)').getexif(); g = e.get_ifd(0x8825); x = e.get_ifd(0x8769)
            dms = lambda v: float(v[0]) + float(v[1]) / 60 + float(v[2]) / 3600
            print(e[0x0132], x[0x9003], g[1], '%.6f' % dms(g[2]), g[3], '%.6f' % dms(g[4]), float(g[6]), g[16], float(g[17]), g[29],
                  ':'.join('%g' % float(t) for t in g[7]))
            """
        let out = Shell.output("/usr/bin/python3 -c \"\(script)\"")
        #expect(out.contains("2026:06:21 08:15:30 2026:06:21 08:15:30 N 47.376912 W 8.541694"), "\(out)")
        #expect(out.contains("408.25 T 123.45 2026:06:21 8:15:30"), "\(out)")
        // Without a fix: the time only, no GPS block.
        let indoors = EXIFWriter.app1(time: time, place: nil, direction: nil)
        #expect(!indoors.contains(0x88) || indoors.count < app1.count)
    }
}
