import LodestoneCore
import LodestoneHAL
import LodestoneOutputs
@testable import LodestoneRuntime
import Testing
@testable import LodestoneBench
@testable import LodestoneSettings
@testable import LodestoneBoard
import LodestoneReports

/// How a person changes what the display shows: keys on the terminal, the page button.
@Suite struct DisplayControlTests {
    @Test func thePageButtonStepsPagesAndALongPressTogglesTheTheme() {
        let display = DisplayTarget(.none, page: .compass)
        display.pageButton(.press)
        display.pageButton(.release)
        #expect(display.page == .position && display.theme == .day)
        display.pageButton(.press)
        display.pageButton(.longPress)
        display.pageButton(.release)
        #expect(display.page == .position && display.theme == .night)
        // Round the rest of the pages back to the first.
        for _ in 0..<(DisplayPage.allCases.count - 1) {
            display.pageButton(.press)
            display.pageButton(.release)
        }
        #expect(display.page == .compass)
    }

    @Test func keysChangePageThemeAndUnitsAndQQuits() {
        let display = DisplayTarget(.none, page: .compass, theme: .night, units: .metric)
        #expect(!display.apply(.page(.sky)) && display.page == .sky)
        #expect(!display.apply(.previousPage) && display.page == .barometer)
        #expect(!display.apply(.toggleTheme) && display.theme == .day)
        #expect(!display.apply(.toggleUnits) && display.units == .imperial)
        #expect(!display.apply(.toggleUnits) && display.units == .nautical)
        #expect(!display.apply(.toggleUnits) && display.units == .metric)
        #expect(display.apply(.quit))
    }

    /// The configuration's page, units and theme, and their errors.
    @Test func theConfigurationChoosesHowTheDisplayStarts() throws {
        var configuration = Configuration()
        try configuration.apply(key: "page", value: .string("sky"), file: "c.json")
        try configuration.apply(key: "units", value: .string("imperial"), file: "c.json")
        try configuration.apply(key: "theme", value: .string("night"), file: "c.json")
        try configuration.apply(key: "listen", value: .string("2947"), file: "c.json")
        #expect(configuration.page == .sky && configuration.units == .imperial && configuration.theme == .night && configuration.listen == "2947")
        #expect(throws: ConfigurationError.self) { try configuration.apply(key: "page", value: .string("weather"), file: "c.json") }
        // A boat reads knots unless told otherwise.
        var boat = Configuration()
        try boat.apply(key: "scenario", value: .string("boat"), file: "c.json")
        #expect(boat.units == .nautical)
        try boat.apply(key: "units", value: .string("metric"), file: "c.json")
        #expect(boat.units == .metric)
        try boat.apply(key: "flipAction", value: .string("nextPage"), file: "c.json")
        #expect(boat.flipAction == .nextPage)
        #expect(throws: ConfigurationError.self) { try boat.apply(key: "flipAction", value: .string("dance"), file: "c.json") }
        try boat.apply(
            key: "sounds",
            value: .object([
                ("offCourse", .string("warble")), ("quietHours", .string("22:00-07:00")),
                ("cardinalClick", .bool(true))
            ]), file: "c.json")
        #expect(boat.sounds.chosen[.offCourse] == "warble" && boat.sounds.quietHours?.from == 1320 && boat.sounds.cardinalClick)
        #expect(throws: ConfigurationError.self) { try boat.apply(key: "sounds", value: .object([("alert", .string("siren"))]), file: "c.json") }
        #expect(throws: ConfigurationError.self) { try boat.apply(key: "sounds", value: .object([("quietHours", .string("late"))]), file: "c.json") }
        var handheld = Configuration()
        try handheld.apply(key: "use", value: .string("boat"), file: "c.json")
        #expect(handheld.units == .nautical && Configuration().units == .metric)
        #expect(throws: ConfigurationError.self) { try configuration.apply(key: "nmeaListen", value: .string("port ten"), file: "c.json") }
    }
}

/// A hundred clients taking IMU and ATT at 50 Hz each: every one is served at its rate and
/// none is dropped. (How the sampling loop's timing compares with and without them is a
/// figure `lodestone bench` prints, not a pass/fail here: timing depends on the machine.)
@Suite(.serialized) struct ClientLoadTests {
    @Test func aHundredClientsAreEachServedAtTheirRate() throws {
        let run = try #require(ClientLoadBench.measure(clients: 100, seconds: 5, executable: EndToEndTests.executable))
        print(
            "100 clients: \(run.reportsPerClientPerSecond) reports per client per second, \(run.droppedClients) dropped, loop p99 \(run.latenessP99) us, \(run.overruns) overruns"
        )
        #expect(run.clients == 100 && run.droppedClients == 0)
        // IMU at 50 Hz and ATT at its 10 Hz: about 60 a second each.
        #expect(run.reportsPerClientPerSecond > 45 && run.reportsPerClientPerSecond < 70)
    }
}
