import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
@testable import LodestoneRuntime
import Testing
@testable import LodestoneSettings
@testable import LodestoneStorage

/// Every number and date from a person or a file is checked for what it means, with the same
/// rule wherever it enters.
@Suite struct InputValidationTests {
    @Test func numbersAreDecimalOnly() {
        for (text, value) in [("12", 12.0), ("-3.5", -3.5), ("+2", 2), (".5", 0.5), ("5.", 5), ("1e3", 1000), ("2.5E-1", 0.25)] {
            #expect(DecimalNumber.parse(text) == value, "\(text)")
        }
        for text in ["0x10", "nan", "inf", "infinity", "-", "", "1e", "12abc", " 1", "1 ", "1e999", "--1", "1.2.3"] {
            #expect(DecimalNumber.parse(text) == nil, "\(text)")
        }
    }

    @Test func onlyDatesThatExistAreDates() {
        #expect(CivilTime.parseDate("2024-02-29").map { [$0.year, $0.month, $0.day] } == [2024, 2, 29])
        for text in [
            "2026-02-30", "2025-02-29", "2100-02-29", "10000-01-01", "-001-01-01", "2026-13-01", "2026-04-31", "2026-6-1",
            "2026-06-01T00", "0000-01-01", "２０２６-01-01"
        ] {
            #expect(CivilTime.parseDate(text) == nil, "\(text)")
        }
    }

    @Test(arguments: [
        (["sky", "--lat", "0x10", "--lon", "8"], "--lat"), (["sky", "--lat", "46", "--lon", "8", "--date", "2026-02-30"], "2026-02-30"),
        (["sky", "--lat", "46", "--lon", "8", "--date", "2250-01-01"], "1900-2100"),
        (["track", "list", "--since", "10000-01-01", "--data-dir", "/tmp/lodestone-none"], "10000-01-01")
    ])
    func theCommandLineRefusesWhatIsNotMeant(arguments: [String], said: String) throws {
        let runner = EndToEndTests()
        let (status, output) = runner.finish(try runner.spawn(arguments))
        #expect(status == 2, "\(output)")
        #expect(output.contains(said), "\(output)")
    }

    @Test func alertThresholdsStayWithinWhatTheAlertMeasures() {
        func rule(_ name: String, _ threshold: Double) -> AlertRules.Rule? {
            (try? AlertRuleChange.decode(.object([("name", .string(name)), ("threshold", .number(threshold))])))
                .map { $0.applied(to: .standard($0.kind)) }
        }
        #expect(rule("temperatureHigh", -500) == nil)
        #expect(rule("temperatureHigh", 30)?.threshold == 30)
        #expect(rule("pressureLow", 5000) == nil && rule("pressureLow", 990) != nil)
        #expect(rule("rapidFall", 3) == nil, "a rise is not a fall")
        #expect(rule("altitudeReached", 1e9) == nil)
    }

    @Test func realTimeSettingsAreWholeNumbers() throws {
        let path = "/tmp/lodestone-validation-\(getpid()).json"
        for (text, accepted) in [
            (#"{"realTime":{"priority":1.5}}"#, false), (#"{"realTime":{"cpu":0.5}}"#, false),
            (#"{"realTime":{"priority":50,"cpu":1}}"#, true)
        ] {
            try replaceFile(path, with: Array(text.utf8))
            var configuration = Configuration()
            do {
                try configuration.load(file: path)
                #expect(accepted, "accepted \(text)")
            } catch {
                #expect(!accepted, "refused \(text): \(error)")
                #expect(error.description.contains("whole number") && error.description.contains(path))
            }
        }
        unlink(path)
    }

    @Test func aConfigurationThatContradictsItselfExitsOneAndNamesTheFile() throws {
        let path = "/tmp/lodestone-validation-rates-\(getpid()).json"
        try replaceFile(path, with: Array(#"{"rates":{"imu":800}}"#.utf8))
        defer { unlink(path) }
        let runner = EndToEndTests()
        let (status, output) = runner.finish(try runner.spawn(["run", "--config", path, "--display", "none", "--duration", "1"]))
        #expect(status == 1, "\(output)")
        #expect(output.contains(path) && output.contains("loop rate"), "\(output)")
    }
}
