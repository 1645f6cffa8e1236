import Glibc
import LodestoneCore
import LodestoneDomain

/// Machine instructions per attitude-filter update, counted by callgrind (repeatable, unlike
/// wall time). `lodestone bench` runs itself under valgrind with collection switched on only
/// inside the filter's update (and, separately, the gyro-bias step), so start-up and the
/// harness are not counted.
public enum AttitudeCostBench {
    /// The work measured: `updates` filter updates (with gyro-bias removal) over a cycle of
    /// varied readings prepared beforehand. Returns a value derived from the result so the
    /// optimiser cannot drop the work.
    public static func kernel(updates: Int) -> Double {
        let readings = self.readings()
        var filter = AttitudeFilter()
        var bias = GyroBiasEstimator()
        for index in 0..<updates {
            let (rate, force, field) = readings[index & 63]
            filter.update(rotationRate: bias.update(rate, interval: 0.01), specificForce: force, field: field, interval: 0.01)
        }
        return filter.orientation.w
    }

    /// The 64 readings the updates cycle through: rotation rate (rad/s), specific force
    /// (m/s^2) and magnetic field (north 20, east 1, down 43), in the body frame of a device
    /// turning about all three axes.
    static func readings() -> [(rate: Vector3, force: Vector3, field: Vector3)] {
        (0..<64).map { index in
            let angle = Double(index) * 0.1
            let q = Quaternion(roll: 0.3 * sin(angle), pitch: 0.2 * cos(angle), yaw: angle)
            return (
                Vector3(0.2 * sin(angle), 0.1, 0.3 * cos(angle)),
                q.rotateInverse(Vector3(0, 0, -9.80665)), q.rotateInverse(Vector3(20, 1, 43))
            )
        }
    }

    public struct Figures: Sendable {
        public var update: Double
        public var gyroBias: Double
    }

    public static func run(updates: Int = 10_000) -> (Figures?, String?) {
        let (counts, note) = Callgrind.count(
            kernel: "attitude", functions: ["*AttitudeFilter*step*", "*GyroBiasEstimator*update*"],
            count: updates)
        guard let counts else { return (nil, note) }
        return (Figures(update: counts[0], gyroBias: counts[1]), nil)
    }
}
