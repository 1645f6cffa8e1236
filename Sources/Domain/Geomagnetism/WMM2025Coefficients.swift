/// One row of a geomagnetic model coefficient file: the Schmidt semi-normalised Gauss
/// coefficients of degree `n` and order `m` at the model epoch, in nT, and their secular
/// variation in nT per year.
public struct GaussCoefficient: Sendable, Equatable {
    public var n: Int
    public var m: Int
    public var g: Double
    public var h: Double
    public var gDot: Double
    public var hDot: Double

    public init(_ n: Int, _ m: Int, _ g: Double, _ h: Double, _ gDot: Double, _ hDot: Double) {
        self.n = n
        self.m = m
        self.g = g
        self.h = h
        self.gDot = gDot
        self.hDot = hDot
    }
}

/// The World Magnetic Model 2025 (WMM-2025, epoch 2025.0, released 2024-11-13 by NOAA NCEI and
/// the British Geological Survey). The figures are the published ones of the model's coefficient
/// file WMM2025.COF ("2025.0  WMM-2025  11/13/2024"), row for row in the file's order
/// (n = 1...12, m = 0...n): n, m, g, h (nT), g-dot, h-dot (nT/year). They are the standard's
/// data, so they are kept exactly as published; a typo here shows up at once against the
/// 100 high-precision test values (Tests/Domain/WorldMagneticModelTests.swift).
public enum WMM2025Coefficients {
    public static let epoch = 2025.0
    public static let maximumDegree = 12

    public static let rows: [GaussCoefficient] = [
        GaussCoefficient(1, 0, -29351.8, 0.0, 12.0, 0.0),
        GaussCoefficient(1, 1, -1410.8, 4545.4, 9.7, -21.5),
        GaussCoefficient(2, 0, -2556.6, 0.0, -11.6, 0.0),
        GaussCoefficient(2, 1, 2951.1, -3133.6, -5.2, -27.7),
        GaussCoefficient(2, 2, 1649.3, -815.1, -8.0, -12.1),
        GaussCoefficient(3, 0, 1361.0, 0.0, -1.3, 0.0),
        GaussCoefficient(3, 1, -2404.1, -56.6, -4.2, 4.0),
        GaussCoefficient(3, 2, 1243.8, 237.5, 0.4, -0.3),
        GaussCoefficient(3, 3, 453.6, -549.5, -15.6, -4.1),
        GaussCoefficient(4, 0, 895.0, 0.0, -1.6, 0.0),
        GaussCoefficient(4, 1, 799.5, 278.6, -2.4, -1.1),
        GaussCoefficient(4, 2, 55.7, -133.9, -6.0, 4.1),
        GaussCoefficient(4, 3, -281.1, 212.0, 5.6, 1.6),
        GaussCoefficient(4, 4, 12.1, -375.6, -7.0, -4.4),
        GaussCoefficient(5, 0, -233.2, 0.0, 0.6, 0.0),
        GaussCoefficient(5, 1, 368.9, 45.4, 1.4, -0.5),
        GaussCoefficient(5, 2, 187.2, 220.2, 0.0, 2.2),
        GaussCoefficient(5, 3, -138.7, -122.9, 0.6, 0.4),
        GaussCoefficient(5, 4, -142.0, 43.0, 2.2, 1.7),
        GaussCoefficient(5, 5, 20.9, 106.1, 0.9, 1.9),
        GaussCoefficient(6, 0, 64.4, 0.0, -0.2, 0.0),
        GaussCoefficient(6, 1, 63.8, -18.4, -0.4, 0.3),
        GaussCoefficient(6, 2, 76.9, 16.8, 0.9, -1.6),
        GaussCoefficient(6, 3, -115.7, 48.8, 1.2, -0.4),
        GaussCoefficient(6, 4, -40.9, -59.8, -0.9, 0.9),
        GaussCoefficient(6, 5, 14.9, 10.9, 0.3, 0.7),
        GaussCoefficient(6, 6, -60.7, 72.7, 0.9, 0.9),
        GaussCoefficient(7, 0, 79.5, 0.0, 0.0, 0.0),
        GaussCoefficient(7, 1, -77.0, -48.9, -0.1, 0.6),
        GaussCoefficient(7, 2, -8.8, -14.4, -0.1, 0.5),
        GaussCoefficient(7, 3, 59.3, -1.0, 0.5, -0.8),
        GaussCoefficient(7, 4, 15.8, 23.4, -0.1, 0.0),
        GaussCoefficient(7, 5, 2.5, -7.4, -0.8, -1.0),
        GaussCoefficient(7, 6, -11.1, -25.1, -0.8, 0.6),
        GaussCoefficient(7, 7, 14.2, -2.3, 0.8, -0.2),
        GaussCoefficient(8, 0, 23.2, 0.0, -0.1, 0.0),
        GaussCoefficient(8, 1, 10.8, 7.1, 0.2, -0.2),
        GaussCoefficient(8, 2, -17.5, -12.6, 0.0, 0.5),
        GaussCoefficient(8, 3, 2.0, 11.4, 0.5, -0.4),
        GaussCoefficient(8, 4, -21.7, -9.7, -0.1, 0.4),
        GaussCoefficient(8, 5, 16.9, 12.7, 0.3, -0.5),
        GaussCoefficient(8, 6, 15.0, 0.7, 0.2, -0.6),
        GaussCoefficient(8, 7, -16.8, -5.2, 0.0, 0.3),
        GaussCoefficient(8, 8, 0.9, 3.9, 0.2, 0.2),
        GaussCoefficient(9, 0, 4.6, 0.0, 0.0, 0.0),
        GaussCoefficient(9, 1, 7.8, -24.8, -0.1, -0.3),
        GaussCoefficient(9, 2, 3.0, 12.2, 0.1, 0.3),
        GaussCoefficient(9, 3, -0.2, 8.3, 0.3, -0.3),
        GaussCoefficient(9, 4, -2.5, -3.3, -0.3, 0.3),
        GaussCoefficient(9, 5, -13.1, -5.2, 0.0, 0.2),
        GaussCoefficient(9, 6, 2.4, 7.2, 0.3, -0.1),
        GaussCoefficient(9, 7, 8.6, -0.6, -0.1, -0.2),
        GaussCoefficient(9, 8, -8.7, 0.8, 0.1, 0.4),
        GaussCoefficient(9, 9, -12.9, 10.0, -0.1, 0.1),
        GaussCoefficient(10, 0, -1.3, 0.0, 0.1, 0.0),
        GaussCoefficient(10, 1, -6.4, 3.3, 0.0, 0.0),
        GaussCoefficient(10, 2, 0.2, 0.0, 0.1, 0.0),
        GaussCoefficient(10, 3, 2.0, 2.4, 0.1, -0.2),
        GaussCoefficient(10, 4, -1.0, 5.3, 0.0, 0.1),
        GaussCoefficient(10, 5, -0.6, -9.1, -0.3, -0.1),
        GaussCoefficient(10, 6, -0.9, 0.4, 0.0, 0.1),
        GaussCoefficient(10, 7, 1.5, -4.2, -0.1, 0.0),
        GaussCoefficient(10, 8, 0.9, -3.8, -0.1, -0.1),
        GaussCoefficient(10, 9, -2.7, 0.9, 0.0, 0.2),
        GaussCoefficient(10, 10, -3.9, -9.1, 0.0, 0.0),
        GaussCoefficient(11, 0, 2.9, 0.0, 0.0, 0.0),
        GaussCoefficient(11, 1, -1.5, 0.0, 0.0, 0.0),
        GaussCoefficient(11, 2, -2.5, 2.9, 0.0, 0.1),
        GaussCoefficient(11, 3, 2.4, -0.6, 0.0, 0.0),
        GaussCoefficient(11, 4, -0.6, 0.2, 0.0, 0.1),
        GaussCoefficient(11, 5, -0.1, 0.5, -0.1, 0.0),
        GaussCoefficient(11, 6, -0.6, -0.3, 0.0, 0.0),
        GaussCoefficient(11, 7, -0.1, -1.2, 0.0, 0.1),
        GaussCoefficient(11, 8, 1.1, -1.7, -0.1, 0.0),
        GaussCoefficient(11, 9, -1.0, -2.9, -0.1, 0.0),
        GaussCoefficient(11, 10, -0.2, -1.8, -0.1, 0.0),
        GaussCoefficient(11, 11, 2.6, -2.3, -0.1, 0.0),
        GaussCoefficient(12, 0, -2.0, 0.0, 0.0, 0.0),
        GaussCoefficient(12, 1, -0.2, -1.3, 0.0, 0.0),
        GaussCoefficient(12, 2, 0.3, 0.7, 0.0, 0.0),
        GaussCoefficient(12, 3, 1.2, 1.0, 0.0, -0.1),
        GaussCoefficient(12, 4, -1.3, -1.4, 0.0, 0.1),
        GaussCoefficient(12, 5, 0.6, 0.0, 0.0, 0.0),
        GaussCoefficient(12, 6, 0.6, 0.6, 0.1, 0.0),
        GaussCoefficient(12, 7, 0.5, -0.1, 0.0, 0.0),
        GaussCoefficient(12, 8, -0.1, 0.8, 0.0, 0.0),
        GaussCoefficient(12, 9, -0.4, 0.1, 0.0, 0.0),
        GaussCoefficient(12, 10, -0.2, -1.0, -0.1, 0.0),
        GaussCoefficient(12, 11, -1.3, 0.1, 0.0, 0.0),
        GaussCoefficient(12, 12, -0.7, 0.2, -0.1, -0.1)
    ]
}
