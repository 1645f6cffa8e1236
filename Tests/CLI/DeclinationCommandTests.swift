import LodestoneDomain
import LodestoneOutputs
import Testing
@testable import lodestone
@testable import LodestoneCore
@testable import LodestoneEncoding

/// `lodestone declination`: option checking and both output forms, without spawning the binary.
@Suite struct DeclinationCommandTests {
    static func parse(_ words: [String]) throws(UsageError) -> DeclinationCommand.Request {
        try DeclinationCommand.parse(ArraySlice(words), now: { 2026.25 })
    }

    static func usageMessage(_ words: [String]) -> String? {
        do {
            _ = try parse(words)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func readsEveryOption() throws {
        let request = try Self.parse(["--lat", "-33.87", "--lon=151.21", "--alt-km", "1.5", "--date", "2028-12-31", "--json"])
        #expect(request.latitude == -33.87 && request.longitude == 151.21 && request.altitudeKilometres == 1.5)
        #expect(abs(request.decimalYear - (2028 + 365.0 / 366)) < 1e-12)
        #expect(request.json)
        let byYear = try Self.parse(["--lat", "10", "--lon", "350", "--decimal-year", "2027.5"])
        #expect(byYear.decimalYear == 2027.5 && !byYear.json && byYear.altitudeKilometres == 0)
    }

    @Test func defaultsToNow() throws {
        #expect(try Self.parse(["--lat", "0", "--lon", "0"]).decimalYear == 2026.25)
        let now = DeclinationCommand.currentDecimalYear()
        #expect(now > 2024 && now < 2100)
    }

    @Test(arguments: [
        ([], "--lat is required"),
        (["--lon", "3"], "--lat is required"),
        (["--lat", "3"], "--lon is required"),
        (["--lat", "91", "--lon", "0"], "--lat must be a number from -90.0 to 90.0"),
        (["--lat", "north", "--lon", "0"], "--lat must be a number"),
        (["--lat", "nan", "--lon", "0"], "--lat must be a number"),
        (["--lat", "0", "--lon", "-181"], "--lon must be a number from -180.0 to 360.0"),
        (["--lat", "0", "--lon", "0", "--alt-km", "2000"], "--alt-km must be a number from -10.0 to 1000.0"),
        (["--lat", "0", "--lon", "0", "--date", "2025-02-30"], "--date must be a day as YYYY-MM-DD"),
        (["--lat", "0", "--lon", "0", "--date", "2025-7-2"], "--date must be a day as YYYY-MM-DD"),
        (["--lat", "0", "--lon", "0", "--date", "tomorrow"], "--date must be a day as YYYY-MM-DD"),
        (["--lat", "0", "--lon", "0", "--date", "1850-01-01"], "--date must be between 1900 and 2100"),
        (["--lat", "0", "--lon", "0", "--decimal-year", "3000"], "--decimal-year must be a number from 1900.0 to 2100.0"),
        (["--lat", "0", "--lon", "0", "--date", "2026-01-01", "--decimal-year", "2026"], "give --date or --decimal-year, not both"),
        (["--lat", "0", "--lon", "0", "--date"], "--date needs a value"),
        (["--lat", "0", "--lon", "0", "--json=yes"], "--json takes no value"),
        (["--lat", "0", "--lon", "0", "--latitude", "3"], "unknown option --latitude"),
        (["--lat", "0", "--lon", "0", "extra"], "unexpected argument 'extra'")
    ])
    func refusesBadOptionsWithOneLine(words: [String], expected: String) {
        let message = Self.usageMessage(words)
        #expect(message?.hasPrefix(expected) == true, "\(words): \(message ?? "accepted")")
        #expect(message?.contains("\n") != true)
    }

    @Test func jsonIsOneLineWithTheAgreedKeys() throws {
        let field = WorldMagneticModel.wmm2025.field(latitude: 51.48, longitude: -0.0015, decimalYear: 2026.0)
        let line = DeclinationCommand.json(field)
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix("{\"declination\":"))
        #expect(line.hasSuffix(",\"model\":\"WMM2025\",\"warning\":null}"))
        let parsed = try JSONValue.parse(line)
        for key in ["declination", "inclination", "totalIntensity", "horizontalIntensity", "north", "east", "down"] {
            let value = try #require(parsed[key]?.numberValue, "\(key)")
            #expect(value.isFinite)
        }
        #expect(abs((parsed["declination"]?.numberValue ?? .nan) - field.declination) < 0.001)
        #expect(abs((parsed["down"]?.numberValue ?? .nan) - field.down) < 0.1)

        let stale = WorldMagneticModel.wmm2025.field(latitude: 51.48, longitude: -0.0015, decimalYear: 2031.0)
        let warned = try JSONValue.parse(DeclinationCommand.json(stale))
        #expect(warned["warning"]?.stringValue?.hasPrefix("WMM2025 is valid 2025.0 to 2030.0") == true)
    }

    @Test func humanTextNamesTheSides() throws {
        // In Rio de Janeiro declination is west and the field points up out of the ground.
        let request = try Self.parse(["--lat", "-22.9", "--lon", "-43.2", "--decimal-year", "2026"])
        let field = WorldMagneticModel.wmm2025.field(
            latitude: request.latitude, longitude: request.longitude,
            decimalYear: request.decimalYear)
        #expect(field.declination < 0 && field.inclination < 0)
        let text = DeclinationCommand.human(field, request)
        #expect(text.hasPrefix("WMM2025 at 22.9000° S, 43.2000° W, 0.0 km, 2026.00\n"))
        #expect(text.contains("declination   \(DeclinationCommand.places(-field.declination, 1))° W"))
        #expect(text.contains("° up"))
        #expect(!text.contains("warning"))

        let late = try Self.parse(["--lat", "45", "--lon", "350", "--decimal-year", "2035"])
        let lateField = WorldMagneticModel.wmm2025.field(latitude: 45, longitude: 350, decimalYear: 2035)
        let lateText = DeclinationCommand.human(lateField, late)
        #expect(lateText.contains("10.0000° W"))
        #expect(lateText.contains("\nwarning: WMM2025 is valid 2025.0 to 2030.0"))
    }

    @Test func placesKeepsTrailingZeros() {
        #expect(DeclinationCommand.places(2.9, 1) == "2.9")
        #expect(DeclinationCommand.places(3, 1) == "3.0")
        #expect(DeclinationCommand.places(-0.04, 1) == "0.0")
        #expect(DeclinationCommand.places(-12.346, 2) == "-12.35")
        #expect(DeclinationCommand.places(48_123.6, 0) == "48124")
    }

    @Test func helpShowsTheUsage() {
        #expect(DeclinationCommand.help.hasPrefix("Usage: lodestone declination --lat DEG --lon DEG"))
    }
}
