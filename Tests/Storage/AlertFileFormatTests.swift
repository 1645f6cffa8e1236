import Glibc
import LodestoneCore
@testable import LodestoneDomain
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
import Testing
@testable import LodestoneStorage

/// The alert files in the store's own format: what it writes it reads back, a hand-edited entry
/// the socket would refuse is skipped, and the history holds the EVENT a client was sent.
@Suite struct AlertFileFormatTests {
    static func scratch(_ name: String) -> String {
        let directory = "/tmp/lodestone-alert-files-\(getpid())-\(name)"
        removeTree(directory)
        return directory
    }

    @Test func savedRulesReadBackAsSaved() throws {
        let directory = Self.scratch("round-trip")
        defer { removeTree(directory) }
        let store = AlertStore(dataDirectory: directory, now: 1_782_028_800)
        var changed = AlertRules.Rule.standard(.pressureLow)
        (changed.threshold, changed.hysteresis, changed.cooldown, changed.enabled) = (975.5, 2.25, 7200, false)
        var altitude = AlertRules.Rule.standard(.altitudeReached)
        (altitude.threshold, altitude.enabled) = (2450, true)
        #expect(store.saveRules([changed, altitude]))
        let rules = store.loadRules(now: 1_782_028_800)
        #expect(rules.rule(.pressureLow) == changed)
        #expect(rules.rule(.altitudeReached) == altitude)
        #expect(rules.rule(.temperatureHigh) == AlertRules.Rule.standard(.temperatureHigh))
    }

    @Test func anEntryTheSocketWouldRefuseIsSkipped() throws {
        let directory = Self.scratch("refused")
        defer { removeTree(directory) }
        _ = makeDirectories(directory)
        let entries = [
            #"{"name":"pressureLow","threshold":970}"#,
            #"{"name":"pressureHigh","cooldown":1e12}"#,
            #"{"name":"temperatureLow","hysteresis":-3}"#,
            #"{"name":"temperatureHigh","enabled":"yes"}"#,
            #"{"name":"snowfall","threshold":3}"#,
            #"{"name":"rapidFall","threshold":-400}"#
        ]
        try replaceFile(directory + "/alerts.json", with: Array(("[" + entries.joined(separator: ",") + "]").utf8))
        let rules = AlertStore(dataDirectory: directory, now: 1_782_028_800).loadRules(now: 1_782_028_800)
        #expect(rules.rule(.pressureLow)?.threshold == 970)
        for kind in [AlertRules.Kind.pressureHigh, .temperatureLow, .temperatureHigh, .rapidFall] {
            #expect(rules.rule(kind) == AlertRules.Rule.standard(kind), "\(kind.rawValue) kept its standard rule")
        }
    }

    @Test func theHistoryHoldsTheEventAClientWasSent() throws {
        let directory = Self.scratch("history")
        defer { removeTree(directory) }
        let time = 1_782_028_861.25
        let alert = AlertRules.Alert(kind: .rapidFall, value: -2.75, threshold: -2, time: time)
        let store = AlertStore(dataDirectory: directory, now: time)
        store.record(alert, time: time)
        let lines = try AlertStore.lines(dataDirectory: directory)
        try #require(lines.count == 1, "one alert in the history; got \(lines)")
        let stored = try JSONValue.parse(lines.first ?? "")
        let sent = try JSONValue.parse(GPSDReports.line(.event(EventReport(.alert(alert), time: time))))
        #expect(stored == sent, "stored \(lines.first ?? "") beside sent \(GPSDReports.line(.event(EventReport(.alert(alert), time: time))))")
        #expect(stored["time"]?.stringValue?.hasPrefix("2026-06-21T08:01:01") == true)
    }
}
