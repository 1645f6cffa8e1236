import CLinux
import Glibc
import LodestoneCore

/// One picture from a camera, in the form it came in.
public struct CameraFrame: Sendable {
    public enum Format: String, Sendable { case mjpeg, yuyv, rgb24 }
    public var format: Format
    public var width: Int, height: Int
    public var bytes: [UInt8]
    public init(format: Format, width: Int, height: Int, bytes: [UInt8]) {
        (self.format, self.width, self.height, self.bytes) = (format, width, height, bytes)
    }
}

public struct CameraError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A still camera: `capture` returns the next frame. Streaming keeps running between
/// captures, so the shutter answers within a frame's time.
public protocol Camera: AnyObject {
    var name: String { get }
    func capture(timeoutMilliseconds: Int32) throws(CameraError) -> CameraFrame
}

/// A camera behind the kernel's V4L2 interface (a USB camera, a camera module through its
/// driver, `vivid`): the format asked for is MJPEG (taken as it comes), else YUYV, else RGB24,
/// at the size asked for or the driver's nearest; four memory-mapped buffers streaming.
public final class V4L2Camera: Camera {
    public let name: String
    public let format: CameraFrame.Format
    public let width: Int, height: Int
    let bytesPerLine: Int
    private let fd: Int32
    private var buffers: [UnsafeMutableRawBufferPointer] = []

    static let fourCC: [(CameraFrame.Format, UInt32)] = [(.mjpeg, code("MJPG")), (.yuyv, code("YUYV")), (.rgb24, code("RGB3"))]

    static func code(_ text: String) -> UInt32 {
        text.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The cameras among /dev/video0 to /dev/video63: devices that capture by streaming (a
    /// camera's metadata nodes and encoders do not).
    public static func captureDevices(prefix: String = "/dev/video") -> [String] {
        (0..<64).compactMap { number in
            let path = prefix + String(number)
            let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var capabilities: UInt32 = 0
            return lodestone_v4l2_capabilities(fd, &capabilities) == 0 && capabilities & 1 != 0 && capabilities & 0x0400_0000 != 0 ? path : nil
        }
    }

    public init(path: String, width: Int = 1280, height: Int = 720) throws(CameraError) {
        name = path
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw CameraError(
                "\(path): \(String(cString: strerror(code)))"
                    + (code == ENOENT ? " (is the camera plugged in? 'lodestone probe' lists the cameras it finds)" : "")
                    + (code == EACCES ? " (add the user to the 'video' group)" : ""))
        }
        self.fd = fd
        var capabilities: UInt32 = 0
        guard lodestone_v4l2_capabilities(fd, &capabilities) == 0 else {
            close(fd)
            throw CameraError("\(path) is not a V4L2 device")
        }
        // V4L2_CAP_VIDEO_CAPTURE (1) and V4L2_CAP_STREAMING (0x0400_0000).
        guard capabilities & 1 != 0, capabilities & 0x0400_0000 != 0 else {
            close(fd)
            throw CameraError("\(path) cannot capture by streaming (capabilities 0x\(String(capabilities, radix: 16)))")
        }
        var chosen: (CameraFrame.Format, UInt32, UInt32, UInt32)?
        for (format, code) in Self.fourCC {
            var (w, h, pixel, line) = (UInt32(clamping: width), UInt32(clamping: height), code, UInt32(0))
            if lodestone_v4l2_set_format(fd, &w, &h, &pixel, &line) == 0, pixel == code, w > 0, h > 0, w <= 16_384, h <= 16_384 {
                chosen = (format, w, h, line)
                break
            }
        }
        guard let chosen else {
            close(fd)
            throw CameraError("\(path) offers none of MJPEG, YUYV or RGB24")
        }
        (format, self.width, self.height) = (chosen.0, Int(chosen.1), Int(chosen.2))
        bytesPerLine = Int(chosen.3)
        var count: UInt32 = 4
        guard lodestone_v4l2_request_buffers(fd, &count) == 0, count >= 1 else {
            close(fd)
            throw CameraError("\(path): no memory-mapped buffers")
        }
        for index in 0..<count {
            var offset: UInt32 = 0, length: UInt32 = 0
            guard lodestone_v4l2_query_buffer(fd, index, &offset, &length) == 0,
                let address = mmap(nil, Int(length), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)), address != MAP_FAILED
            else {
                release()
                throw CameraError("\(path): cannot map buffer \(index)")
            }
            buffers.append(UnsafeMutableRawBufferPointer(start: address, count: Int(length)))
            _ = lodestone_v4l2_queue(fd, index)
        }
        guard lodestone_v4l2_stream(fd, 1) == 0 else {
            release()
            throw CameraError("\(path): cannot start streaming: \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        _ = lodestone_v4l2_stream(fd, 0)
        release()
    }

    private func release() {
        for buffer in buffers { munmap(buffer.baseAddress, buffer.count) }
        buffers.removeAll()
        close(fd)
    }

    /// The newest frame: frames queued while nobody asked are dropped, so the picture is of now.
    public func capture(timeoutMilliseconds: Int32) throws(CameraError) -> CameraFrame {
        var newest: (index: UInt32, used: UInt32)?
        while true {
            var index: UInt32 = 0, used: UInt32 = 0
            if lodestone_v4l2_dequeue(fd, &index, &used) == 0 {
                if let older = newest { _ = lodestone_v4l2_queue(fd, older.index) }
                newest = (index, used)
                continue
            }
            guard errno == EAGAIN else { throw CameraError("\(name): \(String(cString: strerror(errno)))") }
            if newest != nil { break }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeoutMilliseconds) > 0 else { throw CameraError("\(name): no frame within \(timeoutMilliseconds) ms") }
        }
        guard let newest, Int(newest.index) < buffers.count else { throw CameraError("\(name): the driver returned an unknown buffer") }
        let buffer = buffers[Int(newest.index)]
        let bytes = Array(UnsafeRawBufferPointer(rebasing: buffer[0..<min(buffer.count, Int(newest.used))]))
        _ = lodestone_v4l2_queue(fd, newest.index)
        // Lines padded by the driver are packed here.
        let packed =
            format == .mjpeg
            ? bytes
            : Self.packed(
                bytes, width: width, height: height, bytesPerLine: bytesPerLine,
                bytesPerPixel: format == .yuyv ? 2 : 3)
        return CameraFrame(format: format, width: width, height: height, bytes: packed)
    }

    static func packed(_ bytes: [UInt8], width: Int, height: Int, bytesPerLine: Int, bytesPerPixel: Int) -> [UInt8] {
        let row = width * bytesPerPixel
        guard bytesPerLine > row else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(row * height)
        for y in 0..<height where (y + 1) * bytesPerLine <= bytes.count || y * bytesPerLine + row <= bytes.count {
            out += bytes[(y * bytesPerLine)..<(y * bytesPerLine + row)]
        }
        return out
    }
}
