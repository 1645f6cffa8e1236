import LodestoneCore

/// What Earth's field should be where the device is: declination for true north, and the
/// strength and dip a clean magnetometer reading must show. The model is evaluated again only
/// when the device has moved about 5 km or a day has passed (declination changes by well under
/// 0.1 degree over either), so the sampling loop can ask for it at every processing run.
public struct MagneticEnvironment: Sendable {
    public let model: WorldMagneticModel
    public private(set) var expected: GeomagneticField?
    private var latitude = Double.nan
    private var longitude = Double.nan
    private var decimalYear = Double.nan

    public init(model: WorldMagneticModel = .wmm2025) { self.model = model }

    /// Refreshes the expected field for a position (degrees, metres above the ellipsoid) and a
    /// time (seconds since 1970, UTC) when they have changed enough; returns whether it did.
    @discardableResult
    public mutating func update(latitude: Double, longitude: Double, altitude: Double, unixTime: Double) -> Bool {
        guard latitude.isFinite, longitude.isFinite, unixTime.isFinite,
            let year = WorldMagneticModel.decimalYear(CivilTime(unixSeconds: unixTime))
        else { return false }
        let moved =
            !self.latitude.isFinite || abs(latitude - self.latitude) > 0.05
            || abs(Angle.signed(longitude - self.longitude)) > 0.05 / max(0.05, cosine(latitude))
        guard moved || abs(year - decimalYear) > 1.0 / 365 else { return false }
        self.latitude = latitude
        self.longitude = longitude
        decimalYear = year
        expected = model.field(
            latitude: latitude, longitude: longitude,
            altitudeKilometres: (altitude.isFinite ? altitude : 0) / 1000, decimalYear: year)
        return true
    }

    /// cos of a latitude in degrees, from the series (enough for a distance threshold).
    private func cosine(_ degrees: Double) -> Double {
        let x = Angle.radians(degrees)
        return max(0, 1 - x * x / 2 + x * x * x * x / 24)
    }
}
