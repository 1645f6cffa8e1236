import Glibc
import Testing

/// The MQTT output against real mosquitto brokers started by the test (Debian's `mosquitto`),
/// read with mosquitto_sub and python3-paho-mqtt by scripts/mqtt-check.py: Home Assistant's
/// discovery and the Last Will; and the fleet's topology, a board's broker bridged to a
/// central one, across a 60 s outage of the central broker and restarts of Lodestone, with
/// every state message arriving at least once, in order, its chain unbroken.
@Suite(.serialized) struct MQTTBrokerTests {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    static var ready: Bool {
        guard access("/usr/sbin/mosquitto", X_OK) == 0, access("/usr/bin/mosquitto_sub", X_OK) == 0, access("/usr/bin/python3", X_OK) == 0,
            TerminalDisplayTests.output("/usr/bin/python3 -c 'import paho.mqtt.client' && echo ok").contains("ok")
        else {
            print("skipped: the MQTT broker tests need mosquitto, mosquitto-clients and python3-paho-mqtt (scripts/install-deps --test)")
            return false
        }
        return true
    }

    static func check(_ mode: String, port: String, extra: String = "") -> String {
        let work = "/tmp/lodestone-mqtt-\(mode)-\(getpid())"
        _ = TerminalDisplayTests.output("rm -rf \(work)")
        defer { _ = TerminalDisplayTests.output("rm -rf \(work)") }
        return TerminalDisplayTests.output(
            "timeout 300 /usr/bin/python3 \(root)/scripts/mqtt-check.py \(mode) \(EndToEndTests.executable) \(work) \(port) \(extra) 2>&1; echo exit=$?")
    }

    @Test func homeAssistantDiscoveryAndTheLastWill() {
        guard Self.ready else { return }
        let result = Self.check("discovery", port: "\(EndToEndTests.freePort())")
        #expect(result.contains("exit=0") && result.contains("\"problems\": []"), "\(result.prefix(4000))")
        #expect(result.contains("homeassistant/device_tracker/hut/position/config") && result.contains("\"availability\": [\"online\", \"offline\"]"))
    }

    @Test func theFleetLosesNothingAcrossAnOutageAndRestarts() {
        guard Self.ready else { return }
        let result = Self.check("fleet", port: EndToEndTests.freePorts(2).map(String.init).joined(separator: ","), extra: "60")
        #expect(result.contains("exit=0") && result.contains("\"problems\": []") && result.contains("\"inOrder\": true"), "\(result.prefix(4000))")
    }

    /// The broker away and the disk full for 30 s in the middle of the run, then a restart
    /// with the broker back: every message the outbox held reaches the broker, the chain
    /// unbroken from the first.
    @Test func theOutboxComesBackToTheDiskAfterItFills() {
        guard Self.ready else { return }
        let result = Self.check("diskfull", port: "\(EndToEndTests.freePort())")
        #expect(result.contains("exit=0") && result.contains("\"problems\": []"), "\(result.prefix(4000))")
    }

    /// The first states of a run carry only what was measured, at the interval from the
    /// first; angles reach Home Assistant without a state_class.
    @Test func theFirstStatesCarryOnlyWhatWasMeasured() {
        guard Self.ready else { return }
        let result = Self.check("firststate", port: "\(EndToEndTests.freePort())")
        #expect(result.contains("exit=0") && result.contains("\"problems\": []"), "\(result.prefix(4000))")
    }
}
