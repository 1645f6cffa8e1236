/// A rotation by quarter turns between two sets of axes: each output axis is one input axis,
/// possibly negated. The 24 proper rotations are how a breakout board can be mounted square
/// to the device (flat, on edge, upside down, turned); mirror images are not physical and are
/// refused.
public struct AxisMapping: Sendable, Equatable, CustomStringConvertible {
    /// For each output axis, the input axis it takes (0 x, 1 y, 2 z) and its sign.
    public let source: (Int, Int, Int)
    public let sign: (Double, Double, Double)

    public static let identity = AxisMapping(unchecked: (0, 1, 2), (1, 1, 1))
    /// Breakout axes (x forward, y left, z up) to the body frame the domain uses (x forward,
    /// y right, z down), and back: a half turn about x.
    public static let boardToBody = AxisMapping(unchecked: (0, 1, 2), (1, -1, -1))

    private init(unchecked source: (Int, Int, Int), _ sign: (Double, Double, Double)) {
        self.source = source
        self.sign = sign
    }

    /// Why a mapping text is not a mounting.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case repeatedAxis(String)
        case mirrored(String)

        public var description: String {
            switch self {
            case .malformed(let text):
                return "\"\(text)\" is not an axis mapping: give three signed chip axes such as \"x,y,z\", \"-y,x,z\" or \"x,-y,-z\""
            case .repeatedAxis(let text):
                return "\"\(text)\" uses a chip axis twice: each of x, y and z must appear once"
            case .mirrored(let text):
                return "\"\(text)\" is a mirror image, which no mounting produces: negate one more axis (or one fewer)"
            }
        }
    }

    /// Parses "x,y,z"-style text: for each board axis (x forward, y left, z up), the chip axis
    /// that points that way, with a minus sign when it points the opposite way.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.lowercased().split(separator: ",").map { $0.trimmingSpaces() }
        guard parts.count == 3 else { throw .malformed(text) }
        var axes: [Int] = []
        var signs: [Double] = []
        for part in parts {
            var name = Substring(part)
            var sign = 1.0
            if name.hasPrefix("-") { sign = -1; name = name.dropFirst() } else if name.hasPrefix("+") { name = name.dropFirst() }
            guard name.count == 1, let axis = ["x", "y", "z"].firstIndex(of: String(name)) else { throw .malformed(text) }
            axes.append(axis)
            signs.append(sign)
        }
        guard Set(axes).count == 3 else { throw .repeatedAxis(text) }
        let candidate = AxisMapping(unchecked: (axes[0], axes[1], axes[2]), (signs[0], signs[1], signs[2]))
        guard candidate.determinant == 1 else { throw .mirrored(text) }
        self = candidate
    }

    /// +1 for a rotation, -1 for a mirror image.
    public var determinant: Double {
        let s = [source.0, source.1, source.2]
        var inversions = 0
        for i in 0..<3 { for j in (i + 1)..<3 where s[i] > s[j] { inversions += 1 } }
        return (inversions % 2 == 0 ? 1 : -1) * sign.0 * sign.1 * sign.2
    }

    @inline(__always)
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(sign.0 * v[source.0], sign.1 * v[source.1], sign.2 * v[source.2])
    }

    /// The mapping that applies `self` first, then `next`.
    public func then(_ next: AxisMapping) -> AxisMapping {
        let s = [source.0, source.1, source.2], g = [sign.0, sign.1, sign.2]
        let n = [next.source.0, next.source.1, next.source.2], h = [next.sign.0, next.sign.1, next.sign.2]
        return AxisMapping(unchecked: (s[n[0]], s[n[1]], s[n[2]]), (h[0] * g[n[0]], h[1] * g[n[1]], h[2] * g[n[2]]))
    }

    /// The mapping that undoes `self`.
    public var inverse: AxisMapping {
        var s = [0, 0, 0], g = [1.0, 1.0, 1.0]
        let forward = [source.0, source.1, source.2], signs = [sign.0, sign.1, sign.2]
        for output in 0..<3 {
            s[forward[output]] = output
            g[forward[output]] = signs[output]
        }
        return AxisMapping(unchecked: (s[0], s[1], s[2]), (g[0], g[1], g[2]))
    }

    /// All 24 mountings, for tests and documentation.
    public static var allRotations: [AxisMapping] {
        var result: [AxisMapping] = []
        for p in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            for bits in 0..<8 {
                let m = AxisMapping(
                    unchecked: (p[0], p[1], p[2]),
                    (bits & 1 == 0 ? 1 : -1, bits & 2 == 0 ? 1 : -1, bits & 4 == 0 ? 1 : -1))
                if m.determinant == 1 { result.append(m) }
            }
        }
        return result
    }

    public var description: String {
        let names = ["x", "y", "z"]
        return [(source.0, sign.0), (source.1, sign.1), (source.2, sign.2)]
            .map { ($0.1 < 0 ? "-" : "") + names[$0.0] }.joined(separator: ",")
    }

    public static func == (a: AxisMapping, b: AxisMapping) -> Bool {
        a.source == b.source && a.sign == b.sign
    }
}

extension Substring {
    /// Without the spaces at either end.
    public func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
