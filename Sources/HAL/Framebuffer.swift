import CLinux
import Glibc

/// Why a framebuffer could not be used.
public enum FramebufferError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(String)
    /// A path under /dev that is there but is not a framebuffer device (a file left by a typo).
    case notADevice(String)
    case permissionDenied(String)
    case unsupportedFormat(path: String, bitsPerPixel: Int)
    case system(errno: Int32, path: String)

    public var description: String {
        switch self {
        case .notFound(let p):
            return "\(p) does not exist: enable the display's overlay (dtoverlay=...), check the number (ls /dev/fb*) or choose another with --display"
        case .notADevice(let p):
            return "\(p) is not a framebuffer device: check the number (ls /dev/fb*); a picture in a file is --display fb:FILE outside /dev"
        case .permissionDenied(let p): return "permission denied opening \(p): install udev/99-lodestone.rules and add the user to group lodestone"
        case .unsupportedFormat(let p, let bpp): return "\(p) uses \(bpp) bits per pixel: supported are 16 (RGB565), 32 (XRGB8888) and 1 (mono)"
        case .system(let e, let p): return "framebuffer \(p) failed with errno \(e)"
        }
    }
}

/// A mapped frame of pixels: a display's framebuffer device or a file standing in for one.
public protocol Framebuffer: AnyObject {
    var width: Int { get }
    var height: Int { get }
    var format: PixelFormat { get }
    /// Bytes from one line to the next (may exceed width x bytes per pixel).
    var lineLength: Int { get }
    /// For `.mono`: whether a set bit lights the pixel.
    var setBitIsLit: Bool { get }
    /// The mapped pixel memory, `lineLength * height` bytes at least.
    var pixels: UnsafeMutableRawBufferPointer { get }
}

/// Memory shared with a file or device, unmapped and closed when the owner goes.
final class MappedMemory {
    let fd: Int32
    let bytes: UnsafeMutableRawBufferPointer

    init(fd: Int32, length: Int, path: String) throws(FramebufferError) {
        guard let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), address != MAP_FAILED else {
            let code = errno
            close(fd)
            throw .system(errno: code, path: path)
        }
        self.fd = fd
        bytes = UnsafeMutableRawBufferPointer(start: address, count: length)
    }

    deinit {
        munmap(bytes.baseAddress, bytes.count)
        close(fd)
    }
}

func openFailure(_ path: String) -> FramebufferError {
    switch errno {
    case ENOENT, ENODEV, ENXIO: return .notFound(path)
    case EACCES, EPERM: return .permissionDenied(path)
    default: return .system(errno: errno, path: path)
    }
}

/// A Linux framebuffer device (/dev/fbN) through fbdev: geometry from the screen-info ioctls,
/// pixels mapped into memory.
public final class LinuxFramebuffer: Framebuffer {
    public let path: String
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let lineLength: Int
    public let setBitIsLit: Bool
    private let memory: MappedMemory
    public var pixels: UnsafeMutableRawBufferPointer { memory.bytes }

    public init(path: String) throws(FramebufferError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw openFailure(path) }
        var info = lodestone_fb_info()
        guard lodestone_framebuffer_info(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .system(errno: code, path: path)
        }
        switch info.bitsPerPixel {
        case 16: format = .rgb565
        case 32: format = .xrgb8888
        case 1: format = .mono
        default:
            close(fd)
            throw .unsupportedFormat(path: path, bitsPerPixel: Int(info.bitsPerPixel))
        }
        width = Int(info.width)
        height = Int(info.height)
        lineLength = Int(info.lineLength)
        setBitIsLit = info.monoSetBitIsWhite != 0
        memory = try MappedMemory(fd: fd, length: max(Int(info.memoryLength), lineLength * height), path: path)
    }
}

/// A framebuffer in an ordinary file, laid out exactly like a device's memory: for tests,
/// for screenshots, and for running the display on a machine without one.
public final class FileFramebuffer: Framebuffer {
    public let path: String
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let lineLength: Int
    public let setBitIsLit = true
    private let memory: MappedMemory
    public var pixels: UnsafeMutableRawBufferPointer { memory.bytes }

    public init(path: String, width: Int, height: Int, format: PixelFormat) throws(FramebufferError) {
        self.path = path
        self.width = width
        self.height = height
        self.format = format
        lineLength = (width * format.bitsPerPixel + 7) / 8
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw openFailure(path) }
        guard ftruncate(fd, off_t(lineLength * height)) == 0 else {
            let code = errno
            close(fd)
            throw .system(errno: code, path: path)
        }
        memory = try MappedMemory(fd: fd, length: lineLength * height, path: path)
    }
}

extension Framebuffer {
    /// Fills a rectangle (clipped to the panel) with one colour: the pixel packed once and
    /// written row by row, a few instructions a pixel where `set` costs a hundred; what clears
    /// a frame, draws a filled shape and a scaled glyph's blocks.
    public func fill(x: Int, y: Int, width w: Int, height h: Int, red: UInt8, green: UInt8, blue: UInt8) {
        let left = max(0, x), right = min(width, x + w), top = max(0, y), bottom = min(height, y + h)
        guard left < right, top < bottom, let base = pixels.baseAddress, pixels.count >= lineLength * height else { return }
        let lines = lineLength
        switch format {
        case .xrgb8888:
            let value = (UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)).littleEndian
            for row in top..<bottom {
                let start = (base + row * lines + 4 * left).bindMemory(to: UInt32.self, capacity: right - left)
                start.update(repeating: value, count: right - left)
            }
        case .rgb565:
            let value = (UInt16(red >> 3) << 11 | UInt16(green >> 2) << 5 | UInt16(blue >> 3)).littleEndian
            for row in top..<bottom {
                let start = (base + row * lines + 2 * left).bindMemory(to: UInt16.self, capacity: right - left)
                start.update(repeating: value, count: right - left)
            }
        case .mono:
            for row in top..<bottom {
                for column in left..<right { set(x: column, y: row, red: red, green: green, blue: blue) }
            }
        }
    }

    /// Writes one pixel given as 8-bit red, green, blue.
    @inline(__always)
    public func set(x: Int, y: Int, red: UInt8, green: UInt8, blue: UInt8) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let line = y * lineLength
        switch format {
        case .xrgb8888:
            let value = UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
            pixels.storeBytes(of: value.littleEndian, toByteOffset: line + 4 * x, as: UInt32.self)
        case .rgb565:
            let value = UInt16(red >> 3) << 11 | UInt16(green >> 2) << 5 | UInt16(blue >> 3)
            pixels.storeBytes(of: value.littleEndian, toByteOffset: line + 2 * x, as: UInt16.self)
        case .mono:
            // Lit when brighter than mid-grey (ITU-R BT.601 luma weights).
            let lit = 299 * Int(red) + 587 * Int(green) + 114 * Int(blue) >= 128_000
            let index = line + x / 8, bit = UInt8(0x80) >> UInt8(x % 8)
            if lit == setBitIsLit { pixels[index] |= bit } else { pixels[index] &= ~bit }
        }
    }

    /// Reads one pixel back as 8-bit red, green, blue (for screenshots and tests).
    public func get(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        guard x >= 0, y >= 0, x < width, y < height else { return (0, 0, 0) }
        let line = y * lineLength
        switch format {
        case .xrgb8888:
            let value = UInt32(littleEndian: pixels.loadUnaligned(fromByteOffset: line + 4 * x, as: UInt32.self))
            return (UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value))
        case .rgb565:
            let value = UInt16(littleEndian: pixels.loadUnaligned(fromByteOffset: line + 2 * x, as: UInt16.self))
            let r = UInt8(value >> 11), g = UInt8((value >> 5) & 0x3F), b = UInt8(value & 0x1F)
            return (r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2)
        case .mono:
            let set = pixels[line + x / 8] & (UInt8(0x80) >> UInt8(x % 8)) != 0
            let level: UInt8 = set == setBitIsLit ? 255 : 0
            return (level, level, level)
        }
    }

    /// The frame as a binary PPM image (P6), which every image viewer opens.
    public func ppm() -> [UInt8] {
        var out = Array("P6\n\(width) \(height)\n255\n".utf8)
        out.reserveCapacity(out.count + 3 * width * height)
        for y in 0..<height {
            for x in 0..<width {
                let p = get(x: x, y: y)
                out.append(p.red)
                out.append(p.green)
                out.append(p.blue)
            }
        }
        return out
    }
}

/// A frame in ordinary memory with a given layout: the back buffer a frame is drawn into
/// before it is copied to the display in one go (no half-drawn frames), and the canvas of
/// `lodestone screenshot`.

public final class MemoryFramebuffer: Framebuffer {
    /// The text runs drawn on this frame while recording (non-nil): what `lodestone screenshot
    /// --layout-json` writes and the layout tests check for overlaps.
    public var textRuns: [TextRun]?
    /// The boxes of what was drawn besides text (a dial's ring, a graph's fill) while
    /// recording: with the text runs, what the page's used fraction is measured from.
    public var drawnBoxes: [PixelBox]?
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let lineLength: Int
    public let setBitIsLit: Bool
    public let pixels: UnsafeMutableRawBufferPointer

    public init(width: Int, height: Int, format: PixelFormat, lineLength: Int? = nil, setBitIsLit: Bool = true) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.format = format
        self.lineLength = max(lineLength ?? 0, (self.width * format.bitsPerPixel + 7) / 8)
        self.setBitIsLit = setBitIsLit
        pixels = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, self.lineLength * self.height), alignment: 8)
        pixels.initializeMemory(as: UInt8.self, repeating: 0)
    }

    /// A back buffer laid out like `screen`.
    public convenience init(like screen: any Framebuffer) {
        self.init(width: screen.width, height: screen.height, format: screen.format, lineLength: screen.lineLength, setBitIsLit: screen.setBitIsLit)
    }

    /// Copies the whole frame to `screen`, which must have the same layout.
    /// Copies to `screen` only what differs from `shadow` (what the screen showed after the
    /// last call), row by row from the first changed byte to the last, and brings `shadow` up
    /// to date: a turning rose rewrites its circle, not the panel (an SPI panel's driver sends
    /// only the pages written). Returns the bytes written. `shadow` and `screen` must have
    /// this frame's layout.
    @discardableResult
    public func presentChanges(on screen: any Framebuffer, shadow: MemoryFramebuffer) -> Int {
        guard shadow.lineLength == lineLength, shadow.height == height, screen.pixels.count >= lineLength * height,
            let source = pixels.baseAddress, let previous = shadow.pixels.baseAddress, let target = screen.pixels.baseAddress
        else {
            present(on: screen)
            return lineLength * height
        }
        var written = 0
        for row in 0..<height {
            let start = row * lineLength
            guard memcmp(source + start, previous + start, lineLength) != 0 else { continue }
            var first = 0, last = lineLength - 1
            while first < last && source.load(fromByteOffset: start + first, as: UInt8.self) == previous.load(fromByteOffset: start + first, as: UInt8.self) {
                first += 1
            }
            while last > first && source.load(fromByteOffset: start + last, as: UInt8.self) == previous.load(fromByteOffset: start + last, as: UInt8.self) {
                last -= 1
            }
            let count = last - first + 1
            (target + start + first).copyMemory(from: source + start + first, byteCount: count)
            (previous + start + first).copyMemory(from: source + start + first, byteCount: count)
            written += count
        }
        return written
    }

    public func present(on screen: any Framebuffer) {
        let count = min(lineLength * height, screen.pixels.count, pixels.count)
        guard let source = pixels.baseAddress, let target = screen.pixels.baseAddress, count > 0 else { return }
        target.copyMemory(from: source, byteCount: count)
    }

    deinit { pixels.deallocate() }
}
