import LodestoneCore

/// An accelerometer's offset and scale per axis from six still positions (each face of the
/// device down in turn): on each axis, gravity read pointing up and pointing down gives the
/// midpoint (the offset) and the span (twice g, hence the scale). Cheap MEMS parts are off by
/// up to 0.1 g and 3% in scale, which tilts a bubble level by several degrees.
public struct AccelerometerCalibration: Sendable, Equatable, BitwiseCopyable {
    /// In the sensor's units (g or m/s^2, whichever the readings were in).
    public var offset: Vector3
    public var scale: Vector3

    public init(offset: Vector3, scale: Vector3) {
        self.offset = offset
        self.scale = scale
    }

    public func apply(_ raw: Vector3) -> Vector3 {
        Vector3((raw.x - offset.x) * scale.x, (raw.y - offset.y) * scale.y, (raw.z - offset.z) * scale.z)
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case missingPositions([String])
        case notStill
        case implausible(String)

        public var description: String {
            switch self {
            case .missingPositions(let faces):
                return "still readings are missing with \(faces.joined(separator: ", ")) pointing up: hold the device still for 2 s on each of its six faces"
            case .notStill:
                return "no still readings: set the device down on each face and do not touch it for 2 s"
            case .implausible(let why):
                return "the result is implausible (\(why)): check the units (g) and that the device lay square on each face"
            }
        }
    }

    /// Fits from readings taken on six faces. Readings whose magnitude is not near `gravity`
    /// (the device being moved) are ignored; the rest are sorted by which axis points up.
    public static func fit(readings: [Vector3], gravity: Double = 1) -> Result<AccelerometerCalibration, Failure> {
        var sums = [Vector3](repeating: .zero, count: 6)
        var counts = [Int](repeating: 0, count: 6)
        for reading in readings {
            let length = reading.length
            guard length.isFinite, abs(length - gravity) < 0.15 * gravity else { continue }
            let components = [reading.x, reading.y, reading.z]
            var axis = 0
            for index in 1..<3 where abs(components[index]) > abs(components[axis]) { axis = index }
            // The dominant component must really dominate: the device lies square on a face.
            guard abs(components[axis]) > 0.9 * length else { continue }
            let face = axis * 2 + (components[axis] > 0 ? 0 : 1)
            sums[face] = sums[face] + reading
            counts[face] += 1
        }
        guard counts.contains(where: { $0 > 0 }) else { return .failure(.notStill) }
        let names = ["+x", "-x", "+y", "-y", "+z", "-z"]
        let missing = (0..<6).filter { counts[$0] < 10 }.map { names[$0] }
        guard missing.isEmpty else { return .failure(.missingPositions(missing)) }
        let means = (0..<6).map { sums[$0] / Double(counts[$0]) }
        var offset = [0.0, 0.0, 0.0], scale = [1.0, 1.0, 1.0]
        for axis in 0..<3 {
            let up = means[axis * 2][axis], down = means[axis * 2 + 1][axis]
            offset[axis] = (up + down) / 2
            scale[axis] = 2 * gravity / (up - down)
            guard scale[axis] > 0.8, scale[axis] < 1.25 else {
                return .failure(.implausible("axis \(names[axis * 2].dropFirst()) scale \(scale[axis])"))
            }
            guard abs(offset[axis]) < 0.25 * gravity else {
                return .failure(.implausible("axis \(names[axis * 2].dropFirst()) offset \(offset[axis])"))
            }
        }
        return .success(
            AccelerometerCalibration(
                offset: Vector3(offset[0], offset[1], offset[2]),
                scale: Vector3(scale[0], scale[1], scale[2])))
    }
}
