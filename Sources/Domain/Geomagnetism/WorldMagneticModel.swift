import Glibc
import LodestoneCore

/// How fast each element of the field changes, from the model's secular variation.
public struct GeomagneticFieldRates: Sendable, Equatable {
    /// dX/dt, dY/dt, dZ/dt, dH/dt, dF/dt in nT per year.
    public var north: Double
    public var east: Double
    public var down: Double
    public var horizontalIntensity: Double
    public var totalIntensity: Double
    /// dD/dt and dI/dt in degrees per year.
    public var declination: Double
    public var inclination: Double

    public init(
        north: Double, east: Double, down: Double, horizontalIntensity: Double, totalIntensity: Double,
        declination: Double, inclination: Double
    ) {
        self.north = north
        self.east = east
        self.down = down
        self.horizontalIntensity = horizontalIntensity
        self.totalIntensity = totalIntensity
        self.declination = declination
        self.inclination = inclination
    }
}

/// The main geomagnetic field at one place and time, in the geodetic frame of that place:
/// north (X), east (Y) and down (Z) along the WGS84 ellipsoid's local vertical.
public struct GeomagneticField: Sendable, Equatable {
    /// X, Y, Z in nT.
    public var north: Double
    public var east: Double
    public var down: Double
    /// H = sqrt(X^2 + Y^2) and F = sqrt(H^2 + Z^2), nT.
    public var horizontalIntensity: Double
    public var totalIntensity: Double
    /// D: angle from true north to the horizontal field, degrees, east positive.
    public var declination: Double
    /// I: angle of the field below the horizontal, degrees, down positive.
    public var inclination: Double
    public var rates: GeomagneticFieldRates
    /// The time the field is for.
    public var decimalYear: Double
    /// Set when the time is outside the model's validity: the figures are extrapolated.
    public var warning: String?
}

/// A spherical-harmonic main-field model in the form of the World Magnetic Model, evaluated
/// as the WMM2025 technical report (NOAA NCEI / BGS) describes: geodetic position on the WGS84
/// ellipsoid to geocentric spherical coordinates, Schmidt semi-normalised associated Legendre
/// functions, the field in spherical coordinates, then rotated into the geodetic frame.
///
/// Everything that depends only on the model (coefficients by index, recursion factors) is
/// prepared once here; `field(...)` keeps its working arrays on the stack, so a call does not
/// allocate on the heap and the model can be used from any thread.
public struct WorldMagneticModel: Sendable {
    /// WGS84 semi-major axis (km) and flattening, the ellipsoid GPS latitudes refer to.
    public static let wgs84SemiMajorAxis = 6378.137
    public static let wgs84Flattening = 1 / 298.257_223_563
    /// First eccentricity squared, e^2 = f (2 - f).
    static let wgs84EccentricitySquared = wgs84Flattening * (2 - wgs84Flattening)
    /// The geomagnetic reference radius the Gauss coefficients are scaled to, km.
    public static let referenceRadius = 6371.2

    public let name: String
    public let epoch: Double
    /// Decimal years within which the model's figures are meant to be used.
    public let validity: ClosedRange<Double>
    public let maximumDegree: Int

    // Coefficients at the epoch and their secular variation, by index(n, m).
    private let g: [Double]
    private let h: [Double]
    private let gDot: [Double]
    private let hDot: [Double]
    // Legendre recursion factors by index(n, m), and the diagonal factors by m (see `legendre`).
    private let recursionA: [Double]
    private let recursionB: [Double]
    private let diagonal: [Double]

    /// The World Magnetic Model 2025: epoch 2025.0, valid 2025.0 to 2030.0.
    public static let wmm2025 = WorldMagneticModel(
        name: "WMM2025", epoch: WMM2025Coefficients.epoch,
        validity: 2025.0...2030.0, coefficients: WMM2025Coefficients.rows)

    /// A model from coefficient rows. Rows with n < 1 or m outside 0...n are ignored; degrees
    /// missing from the rows count as zero.
    public init(name: String, epoch: Double, validity: ClosedRange<Double>, coefficients: [GaussCoefficient]) {
        self.name = name
        self.epoch = epoch
        self.validity = validity
        let usable = coefficients.filter { $0.n >= 1 && $0.n <= 100 && $0.m >= 0 && $0.m <= $0.n }
        let degree = usable.map(\.n).max() ?? 0
        maximumDegree = degree
        let count = Self.index(degree, degree) + 1
        var g = [Double](repeating: 0, count: count), h = g, gDot = g, hDot = g
        for row in usable {
            let i = Self.index(row.n, row.m)
            g[i] = row.g
            h[i] = row.h
            gDot[i] = row.gDot
            hDot[i] = row.hDot
        }
        (self.g, self.h, self.gDot, self.hDot) = (g, h, gDot, hDot)

        var a = [Double](repeating: 0, count: count), b = a
        var diagonal = [Double](repeating: 1, count: degree + 1)
        for n in stride(from: 1, through: degree, by: 1) {
            for m in 0..<n {
                let nm = Double(n * n - m * m)
                a[Self.index(n, m)] = Double(2 * n - 1) / nm.squareRoot()
                // Zero when n = m + 1: that step has no P(n-2, m) term.
                b[Self.index(n, m)] = (Double((n - 1) * (n - 1) - m * m) / nm).squareRoot()
            }
        }
        if degree >= 2 {
            for m in 2...degree { diagonal[m] = (Double(2 * m - 1) / Double(2 * m)).squareRoot() }
        }
        (recursionA, recursionB, self.diagonal) = (a, b, diagonal)
    }

    /// Position of (n, m) in the triangular arrays: rows n = 0, 1, 2... of n + 1 orders each.
    @inline(__always) static func index(_ n: Int, _ m: Int) -> Int { n * (n + 1) / 2 + m }

    /// The field at geodetic `latitude` (degrees, north positive; clamped to -90...90),
    /// `longitude` (degrees, east positive; any value), `altitudeKilometres` above the WGS84
    /// ellipsoid, at `decimalYear` (see `decimalYear(year:month:day:...)`). Outside
    /// `validity` the secular variation is extrapolated and `warning` says so.
    public func field(
        latitude: Double, longitude: Double, altitudeKilometres: Double = 0,
        decimalYear: Double
    ) -> GeomagneticField {
        let geodeticLatitude = Angle.radians(min(max(latitude, -90), 90))
        let lambda = Angle.radians(longitude)
        let sinLatitude = sin(geodeticLatitude), cosLatitude = cos(geodeticLatitude)

        // Geodetic to geocentric spherical coordinates (report eqs. 7 and 8): the radius of
        // curvature in the prime vertical, then the point's distance from the axis and from
        // the equatorial plane.
        let e2 = Self.wgs84EccentricitySquared
        let primeVerticalRadius = Self.wgs84SemiMajorAxis / (1 - e2 * sinLatitude * sinLatitude).squareRoot()
        let p = (primeVerticalRadius + altitudeKilometres) * cosLatitude
        let z = (primeVerticalRadius * (1 - e2) + altitudeKilometres) * sinLatitude
        let r = (p * p + z * z).squareRoot()
        let geocentricLatitude = atan2(z, p)
        // sin and cos of the geocentric latitude; cos >= 0 because p >= 0.
        let mu = z / r
        let c = p / r

        let dt = decimalYear - epoch
        let degree = maximumDegree
        let count = Self.index(degree, degree) + 1

        var xPrime = 0.0, yPrime = 0.0, zPrime = 0.0
        var xDotPrime = 0.0, yDotPrime = 0.0, zDotPrime = 0.0

        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * count + 3 * (degree + 1)) { buffer in
            guard let base = buffer.baseAddress else { return }
            let q = base, dq = base + count
            let cosML = base + 2 * count, sinML = cosML + (degree + 1), cPower = sinML + (degree + 1)
            legendre(mu: mu, q: q, dq: dq)

            // cos(m lambda), sin(m lambda) by the angle-addition formulas, and c^m.
            let cosLambda = cos(lambda), sinLambda = sin(lambda)
            cosML[0] = 1
            sinML[0] = 0
            cPower[0] = 1
            for m in stride(from: 1, through: degree, by: 1) {
                cosML[m] = cosML[m - 1] * cosLambda - sinML[m - 1] * sinLambda
                sinML[m] = sinML[m - 1] * cosLambda + cosML[m - 1] * sinLambda
                cPower[m] = cPower[m - 1] * c
            }

            // The sums of report eqs. 10-12 (field) and 13-15 (secular variation). With
            // P(n,m) = c^m Q(n,m) the 1/cos(geocentric latitude) of eq. 11 is taken out
            // analytically, P/c = c^(m-1) Q, so Y' has no division and keeps its finite limit
            // at the poles (where the report's software switches to a special summation).
            let ratio = Self.referenceRadius / r
            var scale = ratio * ratio
            for n in stride(from: 1, through: degree, by: 1) {
                scale *= ratio  // (a/r)^(n+2)
                var sumX = 0.0, sumY = 0.0, sumZ = 0.0, sumXDot = 0.0, sumYDot = 0.0, sumZDot = 0.0
                for m in 0...n {
                    let i = Self.index(n, m)
                    let gt = g[i] + gDot[i] * dt, ht = h[i] + hDot[i] * dt
                    let cm = cosML[m], sm = sinML[m]
                    let legendreP = cPower[m] * q[i]
                    // d/d(geocentric latitude) of c^m Q(mu): dc/dphi = -mu, dmu/dphi = c.
                    var derivative = cPower[m] * c * dq[i]
                    var pOverC = 0.0
                    if m > 0 {
                        pOverC = cPower[m - 1] * q[i]
                        derivative -= Double(m) * mu * pOverC
                    }
                    let along = gt * cm + ht * sm, across = gt * sm - ht * cm
                    let alongDot = gDot[i] * cm + hDot[i] * sm, acrossDot = gDot[i] * sm - hDot[i] * cm
                    sumX += along * derivative
                    sumY += Double(m) * across * pOverC
                    sumZ += along * legendreP
                    sumXDot += alongDot * derivative
                    sumYDot += Double(m) * acrossDot * pOverC
                    sumZDot += alongDot * legendreP
                }
                let radial = Double(n + 1) * scale
                xPrime -= scale * sumX
                yPrime += scale * sumY
                zPrime -= radial * sumZ
                xDotPrime -= scale * sumXDot
                yDotPrime += scale * sumYDot
                zDotPrime -= radial * sumZDot
            }
        }

        // Rotate from geocentric to geodetic north and down (report eq. 17).
        let psi = geocentricLatitude - geodeticLatitude
        let cosPsi = cos(psi), sinPsi = sin(psi)
        let north = xPrime * cosPsi - zPrime * sinPsi
        let east = yPrime
        let down = xPrime * sinPsi + zPrime * cosPsi
        let northDot = xDotPrime * cosPsi - zDotPrime * sinPsi
        let eastDot = yDotPrime
        let downDot = xDotPrime * sinPsi + zDotPrime * cosPsi

        // Derived elements (report eq. 19) and their rates (eq. 20).
        let horizontal = (north * north + east * east).squareRoot()
        let total = (horizontal * horizontal + down * down).squareRoot()
        let declination = Angle.degrees(atan2(east, north))
        let inclination = Angle.degrees(atan2(down, horizontal))
        // Where H vanishes the horizontal direction, and so dD/dt, is undefined: report 0.
        let horizontalDot = horizontal > 0 ? (north * northDot + east * eastDot) / horizontal : 0
        let totalDot = total > 0 ? (north * northDot + east * eastDot + down * downDot) / total : 0
        let declinationDot =
            horizontal > 0
            ? Angle.degrees((north * eastDot - east * northDot) / (horizontal * horizontal)) : 0
        let inclinationDot =
            total > 0
            ? Angle.degrees((horizontal * downDot - down * horizontalDot) / (total * total)) : 0

        let rates = GeomagneticFieldRates(
            north: northDot, east: eastDot, down: downDot,
            horizontalIntensity: horizontalDot, totalIntensity: totalDot,
            declination: declinationDot, inclination: inclinationDot)
        return GeomagneticField(
            north: north, east: east, down: down, horizontalIntensity: horizontal,
            totalIntensity: total, declination: declination, inclination: inclination,
            rates: rates, decimalYear: decimalYear,
            warning: warning(decimalYear: decimalYear))
    }

    /// Schmidt semi-normalised associated Legendre functions of mu = sin(geocentric latitude)
    /// with the factor cos^m taken out: P(n,m) = cos^m * Q(n,m), where Q is a polynomial in mu.
    /// Writes Q and dQ/dmu for every (n, m) by the usual recursions, which carry over to Q
    /// unchanged because cos^m is common to all terms of one order m:
    ///   Q(m,m) = sqrt((2m-1)/(2m)) Q(m-1,m-1) (m >= 2), Q(1,1) = Q(0,0) = 1,
    ///   Q(n,m) = [(2n-1) mu Q(n-1,m) - sqrt((n-1)^2-m^2) Q(n-2,m)] / sqrt(n^2-m^2).
    /// No step divides by cos, so the poles need no special case.
    private func legendre(mu: Double, q: UnsafeMutablePointer<Double>, dq: UnsafeMutablePointer<Double>) {
        let degree = maximumDegree
        q[0] = 1
        dq[0] = 0
        for m in 0...degree {
            let diagonalIndex = Self.index(m, m)
            if m >= 1 {
                q[diagonalIndex] = diagonal[m] * q[Self.index(m - 1, m - 1)]
                dq[diagonalIndex] = 0  // Q(m,m) is a constant.
            }
            var n = m + 1
            while n <= degree {
                let i = Self.index(n, m), previous = Self.index(n - 1, m)
                let a = recursionA[i]
                var value = a * mu * q[previous]
                var slope = a * (q[previous] + mu * dq[previous])
                if n >= m + 2 {
                    let b = recursionB[i], twoBack = Self.index(n - 2, m)
                    value -= b * q[twoBack]
                    slope -= b * dq[twoBack]
                }
                q[i] = value
                dq[i] = slope
                n += 1
            }
        }
    }

    /// Nil inside `validity`, otherwise a sentence on why the figures should not be trusted.
    public func warning(decimalYear: Double) -> String? {
        if validity.contains(decimalYear) { return nil }
        let lower = DecimalText.format(validity.lowerBound, 1), upper = DecimalText.format(validity.upperBound, 1)
        guard decimalYear.isFinite else { return "\(name) is valid \(lower) to \(upper); the date is not a number" }
        let year = DecimalText.format(decimalYear, 2)
        let intro = "\(name) is valid \(lower) to \(upper); declination for \(year) may be off by "
        if decimalYear > validity.upperBound {
            let years = DecimalText.format(decimalYear - validity.upperBound, 1)
            return intro + "an amount that grows with each year past the model's end (here \(years) years); "
                + "a newer model is needed"
        }
        let years = DecimalText.format(validity.lowerBound - decimalYear, 1)
        return intro + "an amount that grows with each year before the model's start (here \(years) years); "
            + "an older model (an earlier WMM, or IGRF) is needed"
    }

    /// The decimal year of a UTC calendar date and time: the year plus the fraction of it
    /// elapsed, counting the year's real length (366 days in a leap year), so 2025-07-02 12:00
    /// is 2025.5. Nil when the date does not exist (month 13, 30 February, hour 24...).
    public static func decimalYear(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0,
        second: Double = 0
    ) -> Double? {
        guard (-1_000_000...1_000_000).contains(year), (1...12).contains(month), day >= 1,
            day <= daysInMonth(year: year, month: month), (0..<24).contains(hour), (0..<60).contains(minute),
            second >= 0, second < 61
        else { return nil }
        let startOfYear = CivilTime.days(year: year, month: 1, day: 1)
        let daysInYear = CivilTime.days(year: year + 1, month: 1, day: 1) - startOfYear
        let dayOfYear = CivilTime.days(year: year, month: month, day: day) - startOfYear
        // A leap second (second 60) is held at the day's end rather than spilling into the next.
        let secondOfDay = min(Double(hour * 3600 + minute * 60) + second, 86_400)
        return Double(year) + (Double(dayOfYear) + secondOfDay / 86_400) / Double(daysInYear)
    }

    /// The decimal year of a UTC time (see `decimalYear(year:month:day:...)`).
    public static func decimalYear(_ time: CivilTime) -> Double? {
        decimalYear(
            year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute,
            second: time.second)
    }

    /// 28 to 31; 0 for a month outside 1...12.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        guard (1...12).contains(month) else { return 0 }
        let next =
            month == 12
            ? CivilTime.days(year: year + 1, month: 1, day: 1)
            : CivilTime.days(year: year, month: month + 1, day: 1)
        return next - CivilTime.days(year: year, month: month, day: 1)
    }
}
