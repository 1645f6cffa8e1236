import Glibc
import LodestoneCore

/// Trustworthy positions from a receiver's fixes: a Kalman filter on east/north position and
/// velocity (metres, around a local origin), weighted by each fix's accuracy, with a gate
/// that rejects fixes no one could have reached (a 300 m jump while walking), and prediction
/// through short gaps. Beyond `maximumGap` seconds without a fix it reports nothing rather
/// than invent a track.
public struct PositionFilter: Sendable {
    /// Fastest plausible speed for each motion state, m/s (a jump implying more is an outlier).
    public static func speedLimit(_ state: MotionState) -> Double {
        switch state {
        case .still: return 3
        case .walking: return 4
        case .running: return 9
        case .vehicle: return 70
        }
    }

    /// How much the velocity may wander, (m/s^2)^2 per second.
    static func acceleration(_ state: MotionState) -> Double {
        switch state {
        case .still: return 0.01
        case .walking: return 0.05
        case .running: return 0.3
        case .vehicle: return 4
        }
    }

    public var maximumGap = 10.0
    /// Consecutive rejections that agree with each other are believed (the receiver really
    /// moved, say after a tunnel).
    public var acceptAfter = 5
    public private(set) var rejected = 0
    private var originLatitude = Double.nan
    private var originLongitude = Double.nan
    private var x = [0.0, 0.0, 0.0, 0.0]  // east, north, velocity east, velocity north
    private var p = [Double](repeating: 0, count: 16)
    private var lastTime = Double.nan
    private var pendingRejections = 0
    private var lastRejected: (east: Double, north: Double, time: Double)?

    public init() {}

    public var isInitialised: Bool { lastTime.isFinite }

    /// The filtered position, its one-sigma horizontal error (m) and velocity; nil before the
    /// first fix or after a gap beyond `maximumGap` at time `now`.
    public func estimate(at now: Double) -> (latitude: Double, longitude: Double, error: Double, speed: Double, interpolated: Bool)? {
        guard lastTime.isFinite, now - lastTime <= maximumGap else { return nil }
        let dt = max(0, now - lastTime)
        let east = x[0] + x[2] * dt, north = x[1] + x[3] * dt
        let (lat, lon) = geographic(east: east, north: north)
        let error = (max(0, p[0]) + max(0, p[5])).squareRoot()
        return (lat, lon, error, (x[2] * x[2] + x[3] * x[3]).squareRoot(), dt > 1.5)
    }

    /// One fix: position (degrees), its one-sigma horizontal accuracy (m), the time (s), the
    /// motion state. Returns false when the fix was rejected as an outlier.
    @discardableResult
    public mutating func add(latitude: Double, longitude: Double, accuracy: Double, time: Double, motion: MotionState) -> Bool {
        guard latitude.isFinite, longitude.isFinite, time.isFinite, abs(latitude) <= 90 else { return false }
        let sigma = accuracy.isFinite && accuracy > 0 ? accuracy : 5
        // A long gap, or time gone back (a receiver's clock corrected, a bad date believed
        // before): start afresh rather than reject every fix from then on.
        if !originLatitude.isFinite || !lastTime.isFinite || time - lastTime > maximumGap || time < lastTime - 1 {
            start(latitude: latitude, longitude: longitude, sigma: sigma, time: time)
            return true
        }
        let (east, north) = local(latitude: latitude, longitude: longitude)
        let dt = time - lastTime
        guard dt > 0 else { return false }
        predict(dt: dt, motion: motion)
        // The gate: the distance from the prediction, allowing for both uncertainties.
        let de = east - x[0], dn = north - x[1]
        let allowed = Self.speedLimit(motion) * dt + 3 * ((p[0] + p[5]) / 2 + sigma * sigma).squareRoot()
        if (de * de + dn * dn).squareRoot() > allowed {
            // A run of rejected fixes that agree with each other is the truth arriving.
            if let last = lastRejected,
                ((east - last.east) * (east - last.east) + (north - last.north) * (north - last.north)).squareRoot()
                    <= Self.speedLimit(motion) * (time - last.time) + 3 * sigma
            {
                pendingRejections += 1
            } else {
                pendingRejections = 1
            }
            lastRejected = (east, north, time)
            if pendingRejections < acceptAfter {
                rejected += 1
                lastTime = time
                return false
            }
            start(latitude: latitude, longitude: longitude, sigma: sigma, time: time)
            return true
        }
        pendingRejections = 0
        lastRejected = nil
        correct(east: east, north: north, variance: sigma * sigma)
        if motion == .still { stop() }
        lastTime = time
        return true
    }

    private mutating func start(latitude: Double, longitude: Double, sigma: Double, time: Double) {
        originLatitude = latitude
        originLongitude = longitude
        x = [0, 0, 0, 0]
        p = [sigma * sigma, 0, 0, 0, 0, sigma * sigma, 0, 0, 0, 0, 4, 0, 0, 0, 0, 4]
        lastTime = time
        pendingRejections = 0
        lastRejected = nil
    }

    /// Constant-velocity prediction with white acceleration noise.
    private mutating func predict(dt: Double, motion: MotionState) {
        x[0] += x[2] * dt
        x[1] += x[3] * dt
        let q = Self.acceleration(motion)
        for axis in 0..<2 {
            let i = axis, v = axis + 2
            let pii = p[i * 4 + i], piv = p[i * 4 + v], pvv = p[v * 4 + v]
            p[i * 4 + i] = pii + 2 * dt * piv + dt * dt * pvv + q * dt * dt * dt / 3
            p[i * 4 + v] = piv + dt * pvv + q * dt * dt / 2
            p[v * 4 + i] = p[i * 4 + v]
            p[v * 4 + v] = pvv + q * dt
        }
    }

    /// The accelerometer says the device is not moving: a zero-velocity measurement, so the
    /// receiver's wandering error at rest does not become phantom movement.
    private mutating func stop() {
        for axis in 0..<2 {
            let i = axis, v = axis + 2
            let s = p[v * 4 + v] + 0.0025  // (5 cm/s)^2
            let gainPosition = p[i * 4 + v] / s, gainVelocity = p[v * 4 + v] / s
            let innovation = -x[v]
            x[i] += gainPosition * innovation
            x[v] += gainVelocity * innovation
            let pii = p[i * 4 + i], piv = p[i * 4 + v], pvv = p[v * 4 + v]
            p[i * 4 + i] = pii - gainPosition * piv
            p[i * 4 + v] = (1 - gainVelocity) * piv
            p[v * 4 + i] = p[i * 4 + v]
            p[v * 4 + v] = (1 - gainVelocity) * pvv
        }
    }

    /// Position measurement update, east and north independently (their covariance stays zero).
    private mutating func correct(east: Double, north: Double, variance: Double) {
        for (axis, measured) in [(0, east), (1, north)] {
            let i = axis, v = axis + 2
            let s = p[i * 4 + i] + variance
            let gainPosition = p[i * 4 + i] / s, gainVelocity = p[v * 4 + i] / s
            let innovation = measured - x[i]
            x[i] += gainPosition * innovation
            x[v] += gainVelocity * innovation
            let pii = p[i * 4 + i], piv = p[i * 4 + v], pvv = p[v * 4 + v]
            p[i * 4 + i] = (1 - gainPosition) * pii
            p[i * 4 + v] = (1 - gainPosition) * piv
            p[v * 4 + i] = p[i * 4 + v]
            p[v * 4 + v] = pvv - gainVelocity * piv
        }
        // Keep the origin near: move it when the device has gone 10 km.
        if abs(x[0]) > 10_000 || abs(x[1]) > 10_000 {
            let (lat, lon) = geographic(east: x[0], north: x[1])
            (originLatitude, originLongitude, x[0], x[1]) = (lat, lon, 0, 0)
        }
    }

    static let metresPerDegree = 111_320.0
    private func local(latitude: Double, longitude: Double) -> (Double, Double) {
        var dl = longitude - originLongitude
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        return (dl * Self.metresPerDegree * cos(Angle.radians(originLatitude)), (latitude - originLatitude) * Self.metresPerDegree)
    }

    private func geographic(east: Double, north: Double) -> (Double, Double) {
        let latitude = originLatitude + north / Self.metresPerDegree
        var longitude = originLongitude + east / (Self.metresPerDegree * max(1e-6, cos(Angle.radians(originLatitude))))
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return (latitude, longitude)
    }
}
