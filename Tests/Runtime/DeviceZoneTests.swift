import LodestoneSettings
import Testing

@testable import LodestoneRuntime

/// Which zone the device shows: the setting; a zone a phone offered (also in place of a plain
/// UTC setting); the simulated scenario's place's; the system's.
@Suite struct DeviceZoneTests {
    static func configuration(zone: String?, scenario: String = "boat") -> Configuration {
        var c = Configuration()
        c.timeZone = zone
        c.scenario = scenario
        return c
    }

    @Test func theSettingComesFirst() {
        let chosen = DeviceZone.resolve(Self.configuration(zone: "Asia/Tokyo"), simulated: true, remembered: "America/New_York")
        #expect(chosen.current == DeviceZone.Choice(name: "Asia/Tokyo", source: .configuration))
        #expect(chosen.unset == DeviceZone.Choice(name: "America/New_York", source: .phone))
    }

    @Test func aPhonesZoneStandsInForUTCAndForNoSetting() {
        for setting in [nil, "UTC", "Etc/UTC", "+00:00"] {
            let chosen = DeviceZone.resolve(Self.configuration(zone: setting), simulated: false, remembered: "Europe/Zurich")
            #expect(chosen.current == DeviceZone.Choice(name: "Europe/Zurich", source: .phone), "\(String(describing: setting))")
        }
    }

    @Test func theSimulatedWorldKnowsWhereItIs() {
        #expect(DeviceZone.resolve(Self.configuration(zone: nil, scenario: "boat"), simulated: true, remembered: nil).current.name == "Europe/Paris")
        #expect(DeviceZone.resolve(Self.configuration(zone: nil, scenario: "walk"), simulated: true, remembered: nil).current.name == "Europe/Zurich")
        // A board is not a scenario: its zone is the system's.
        #expect(DeviceZone.resolve(Self.configuration(zone: nil), simulated: false, remembered: nil).current == DeviceZone.Choice(name: nil, source: .system))
    }
}
