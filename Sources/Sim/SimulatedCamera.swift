import LodestoneCore
import LodestoneHAL

/// The simulated board's camera: YUYV frames of a made-up scene (a sky over a horizon with the
/// frame's number in its brightness), as a USB camera without MJPEG delivers them, at once.
public final class SimulatedCamera: Camera {
    public let name = "sim:camera"
    let width: Int, height: Int
    private var frames = 0

    public init(width: Int = 640, height: Int = 480) {
        self.width = max(16, width & ~1)
        self.height = max(16, height)
    }

    public func capture(timeoutMilliseconds: Int32) throws(CameraError) -> CameraFrame {
        frames += 1
        var bytes = [UInt8](repeating: 0, count: width * height * 2)
        let horizon = height * 3 / 5
        for y in 0..<height {
            // Sky: light blue brightening upwards; ground: green.
            let (luma, u, v): (Int, Int, Int) = y < horizon ? (170 + (horizon - y) * 40 / horizon, 150, 110) : (90 + (frames * 7) % 30, 100, 110)
            for pair in 0..<(width / 2) {
                let i = (y * width + pair * 2) * 2
                (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]) = (UInt8(luma), UInt8(u), UInt8(luma), UInt8(v))
            }
        }
        return CameraFrame(format: .yuyv, width: width, height: height, bytes: bytes)
    }
}
