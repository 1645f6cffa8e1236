import Glibc
import LodestoneHAL
import Testing

/// Pixel packing in every supported format, through the file-backed framebuffer laid out as a
/// device's memory is.
@Suite struct FramebufferTests {
    func temporaryPath() -> String { "/tmp/lodestone-fb-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).raw" }

    @Test func rgb565PacksFiveSixFiveLittleEndian() throws {
        let path = temporaryPath()
        defer { unlink(path) }
        let fb = try FileFramebuffer(path: path, width: 4, height: 2, format: .rgb565)
        #expect(fb.lineLength == 8)
        fb.set(x: 1, y: 1, red: 255, green: 0, blue: 0)
        #expect(fb.pixels[8 + 2] == 0x00 && fb.pixels[8 + 3] == 0xF8)  // 0xF800, low byte first
        fb.set(x: 2, y: 0, red: 0, green: 255, blue: 0)
        #expect(fb.pixels[4] == 0xE0 && fb.pixels[5] == 0x07)  // 0x07E0
        #expect(fb.get(x: 2, y: 0) == (0, 255, 0))
        fb.set(x: 9, y: 9, red: 255, green: 255, blue: 255)  // off screen: ignored
    }

    @Test func xrgb8888KeepsEightBitsPerChannel() throws {
        let path = temporaryPath()
        defer { unlink(path) }
        let fb = try FileFramebuffer(path: path, width: 3, height: 3, format: .xrgb8888)
        fb.set(x: 2, y: 1, red: 0x12, green: 0x34, blue: 0x56)
        let offset = 1 * 12 + 2 * 4
        #expect(Array(fb.pixels[offset..<offset + 4]) == [0x56, 0x34, 0x12, 0x00])
        #expect(fb.get(x: 2, y: 1) == (0x12, 0x34, 0x56))
    }

    @Test func monoIsOneBitMostSignificantFirst() throws {
        let path = temporaryPath()
        defer { unlink(path) }
        let fb = try FileFramebuffer(path: path, width: 12, height: 2, format: .mono)
        #expect(fb.lineLength == 2)
        fb.set(x: 0, y: 0, red: 255, green: 255, blue: 255)
        fb.set(x: 9, y: 1, red: 200, green: 200, blue: 200)
        fb.set(x: 1, y: 0, red: 40, green: 40, blue: 40)  // dark: stays off
        #expect(fb.pixels[0] == 0x80 && fb.pixels[3] == 0x40)
        fb.set(x: 0, y: 0, red: 0, green: 0, blue: 0)
        #expect(fb.pixels[0] == 0x00)
    }

    @Test func theFileHoldsTheFrameAndAScreenshotReadsItBack() throws {
        let path = temporaryPath()
        defer { unlink(path) }
        do {
            let fb = try FileFramebuffer(path: path, width: 2, height: 1, format: .xrgb8888)
            fb.set(x: 1, y: 0, red: 255, green: 128, blue: 0)
            #expect(fb.ppm() == Array("P6\n2 1\n255\n".utf8) + [0, 0, 0, 255, 128, 0])
        }
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_size == 8)
        let again = try FileFramebuffer(path: path, width: 2, height: 1, format: .xrgb8888)
        #expect(again.get(x: 1, y: 0) == (255, 128, 0))
    }

    @Test func aMissingDeviceIsATypedError() {
        #expect(throws: FramebufferError.notFound("/dev/fb-none")) { try LinuxFramebuffer(path: "/dev/fb-none") }
        // /dev/null is not a framebuffer: the screen-info ioctl fails and is reported, not trapped.
        #expect(throws: FramebufferError.self) { try LinuxFramebuffer(path: "/dev/null") }
    }

    /// Only what changed reaches the panel: after a full first frame, a frame that differs in a
    /// few pixels writes those rows' changed spans only, and the panel then equals the frame.
    @Test func onlyTheChangesAreWritten() {
        let back = MemoryFramebuffer(width: 480, height: 320, format: .rgb565)
        let screen = MemoryFramebuffer(width: 480, height: 320, format: .rgb565)
        let shadow = MemoryFramebuffer(width: 480, height: 320, format: .rgb565)
        for y in 0..<320 { for x in 0..<480 { back.set(x: x, y: y, red: UInt8(x % 256), green: UInt8(y % 256), blue: 7) } }
        #expect(back.presentChanges(on: screen, shadow: shadow) > 0)
        #expect(back.presentChanges(on: screen, shadow: shadow) == 0, "nothing changed, nothing written")
        back.set(x: 10, y: 5, red: 255, green: 255, blue: 255)
        back.set(x: 20, y: 5, red: 0, green: 0, blue: 0)
        back.set(x: 400, y: 300, red: 1, green: 2, blue: 3)
        let written = back.presentChanges(on: screen, shadow: shadow)
        #expect(written == (20 - 10 + 1) * 2 + 2, "row 5 from pixel 10 to 20 and one pixel of row 300: \(written)")
        for (x, y) in [(10, 5), (20, 5), (15, 5), (400, 300), (0, 0), (479, 319)] {
            #expect(screen.get(x: x, y: y) == back.get(x: x, y: y), "(\(x), \(y))")
        }
        let other = MemoryFramebuffer(width: 100, height: 10, format: .rgb565)
        #expect(back.presentChanges(on: screen, shadow: other) == 480 * 2 * 320, "a shadow of another layout: the whole frame")
    }
}
