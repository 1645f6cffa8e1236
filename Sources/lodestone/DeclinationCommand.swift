import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneRuntime
import LodestoneEncoding

/// `lodestone declination`: the World Magnetic Model's field at a place and date, offline.
enum DeclinationCommand {
    static let help = """
        Usage: lodestone declination --lat DEG --lon DEG [--alt-km KM] [--date YYYY-MM-DD | --decimal-year Y] [--json]

        The Earth's main magnetic field at a place and time from the World Magnetic Model 2025
        (NOAA NCEI and the British Geological Survey): the declination, the angle from true north
        to magnetic north (add it to a magnetic heading to get a true heading); the inclination; and
        the intensities and north, east, down components. Needs no board and no network.

        Options:
          --lat DEG             geodetic latitude in degrees, -90 to 90, north positive
          --lon DEG             longitude in degrees, -180 to 360, east positive
          --alt-km KM           height above the WGS84 ellipsoid in km, -10 to 1000 (default 0)
          --date YYYY-MM-DD     the day, at 00:00 UTC (default: now, UTC)
          --decimal-year Y      the time as a decimal year instead of --date, e.g. 2027.5
          --json                one line: {"declination":..,"inclination":..,"totalIntensity":..,
                                "horizontalIntensity":..,"north":..,"east":..,"down":..,
                                "model":"WMM2025","warning":null}

        Angles are in degrees (declination east positive, inclination down positive), the field in
        nanotesla. WMM2025 is valid from 2025.0 to 2030.0; outside that the figures are extrapolated
        and a warning says so (in --json, "warning" is then a string).

        Examples:
          lodestone declination --lat 51.48 --lon -0.0015
          lodestone declination --lat -33.87 --lon 151.21 --date 2027-03-01 --json
        """

    /// What the command line asks for.
    struct Request: Equatable {
        var latitude: Double
        var longitude: Double
        var altitudeKilometres: Double
        var decimalYear: Double
        var json: Bool
    }

    static let latitudeRange = -90.0...90.0
    static let longitudeRange = -180.0...360.0
    static let altitudeRange = -10.0...1000.0
    /// Far enough to allow a warned extrapolation, near enough to refuse nonsense.
    static let yearRange = 1900.0...2100.0

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let request = try parse(arguments, now: currentDecimalYear)
        let field = WorldMagneticModel.wmm2025.field(
            latitude: request.latitude, longitude: request.longitude,
            altitudeKilometres: request.altitudeKilometres,
            decimalYear: request.decimalYear)
        writeOut((request.json ? json(field) : human(field, request)) + "\n")
        return 0
    }

    /// The options, checked; `now` gives the decimal year when neither --date nor --decimal-year is given.
    static func parse(_ arguments: ArraySlice<String>, now: () -> Double) throws(UsageError) -> Request {
        let options = try Options(
            arguments,
            spec: OptionSpec(
                valued: ["lat", "lon", "alt-km", "date", "decimal-year"],
                flags: ["json"]), command: "declination")
        if let extra = options.positional.first {
            throw UsageError(
                message: "unexpected argument '\(extra)' for 'declination'; "
                    + "type e.g. lodestone declination --lat 51.48 --lon -0.0015")
        }
        guard let latitude = try options.number("lat", in: latitudeRange) else {
            throw UsageError(
                message: "--lat is required: the latitude in degrees, north positive, "
                    + "e.g. lodestone declination --lat 51.48 --lon -0.0015")
        }
        guard let longitude = try options.number("lon", in: longitudeRange) else {
            throw UsageError(
                message: "--lon is required: the longitude in degrees, east positive, "
                    + "e.g. lodestone declination --lat 51.48 --lon -0.0015")
        }
        let altitude = try options.number("alt-km", in: altitudeRange) ?? 0
        let decimalYear: Double
        let givenYear = try options.number("decimal-year", in: yearRange)
        switch (options.values["date"], givenYear) {
        case (.some, .some):
            throw UsageError(message: "give --date or --decimal-year, not both")
        case (.some(let text), nil):
            decimalYear = try parseDate(text)
        case (nil, .some(let year)):
            decimalYear = year
        case (nil, nil):
            decimalYear = now()
        }
        return Request(
            latitude: latitude, longitude: longitude, altitudeKilometres: altitude,
            decimalYear: decimalYear, json: options.flags.contains("json"))
    }

    /// YYYY-MM-DD, a real calendar day within `yearRange`, as the decimal year of its 00:00 UTC.
    static func parseDate(_ text: String) throws(UsageError) -> Double {
        let error = UsageError(message: "--date must be a day as YYYY-MM-DD, e.g. --date 2025-07-02, not '\(text)'")
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0 >= "0" && $0 <= "9" } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            let decimalYear = WorldMagneticModel.decimalYear(year: year, month: month, day: day)
        else { throw error }
        guard yearRange.contains(decimalYear) else {
            throw UsageError(
                message: "--date must be between \(Int(yearRange.lowerBound)) and "
                    + "\(Int(yearRange.upperBound)), not '\(text)'")
        }
        return decimalYear
    }

    /// Now, from the system's real-time clock, in UTC.
    static func currentDecimalYear() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let now = CivilTime(unixSeconds: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
        return WorldMagneticModel.decimalYear(now) ?? Double(now.year)
    }

    /// The one-line JSON report: degrees to 0.001, nT to 0.1.
    static func json(_ field: GeomagneticField) -> String {
        var writer = JSONObjectWriter()
        writer.number("declination", field.declination, decimals: 3)
        writer.number("inclination", field.inclination, decimals: 3)
        writer.number("totalIntensity", field.totalIntensity, decimals: 1)
        writer.number("horizontalIntensity", field.horizontalIntensity, decimals: 1)
        writer.number("north", field.north, decimals: 1)
        writer.number("east", field.east, decimals: 1)
        writer.number("down", field.down, decimals: 1)
        writer.string("model", WorldMagneticModel.wmm2025.name)
        if let warning = field.warning { writer.string("warning", warning) } else { writer.null("warning") }
        return writer.finished
    }

    /// A few lines for a person. Angles to 0.1 degree: the model itself is good to a few tenths.
    static func human(_ field: GeomagneticField, _ request: Request) -> String {
        let latitude = places(abs(request.latitude), 4) + "° " + (request.latitude < 0 ? "S" : "N")
        var longitude = request.longitude
        if longitude > 180 { longitude -= 360 }
        let longitudeText = places(abs(longitude), 4) + "° " + (longitude < 0 ? "W" : "E")
        var out =
            "\(WorldMagneticModel.wmm2025.name) at \(latitude), \(longitudeText), "
            + "\(places(request.altitudeKilometres, 1)) km, \(places(request.decimalYear, 2))\n"
        out +=
            "declination   \(places(abs(field.declination), 1))° \(field.declination < 0 ? "W" : "E")"
            + "  (\(places(abs(field.rates.declination), 2))°/year \(field.rates.declination < 0 ? "westward" : "eastward"))\n"
        out += "inclination   \(places(abs(field.inclination), 1))° \(field.inclination < 0 ? "up" : "down")\n"
        out += "intensity     \(places(field.totalIntensity, 0)) nT total, \(places(field.horizontalIntensity, 0)) nT horizontal\n"
        out +=
            "components    north \(places(field.north, 0)) nT, east \(places(field.east, 0)) nT, "
            + "down \(places(field.down, 0)) nT"
        if let warning = field.warning { out += "\nwarning: " + warning }
        return out
    }

    /// `value` with exactly `decimals` places (trailing zeros kept, so columns read evenly).
    static func places(_ value: Double, _ decimals: Int) -> String { DecimalText.format(value, decimals, unknown: "--") }
}
