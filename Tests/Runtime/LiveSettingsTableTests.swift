import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneSettings
import Testing
@testable import LodestoneRuntime

/// The settings a reload (SIGHUP) applies are the ones the table's `reload` column marks live:
/// each row is changed alone, and a reload takes it into the running configuration (with a
/// part of the device to put it in force) exactly when the row says `live`, and names it as
/// waiting for a restart otherwise.
@Suite struct LiveSettingsTableTests {
    /// Values to try on a row until one is stored and differs from the default: a row no
    /// candidate fits needs one added here.
    static func candidates(for setting: Setting) -> [JSONValue] {
        var values: [JSONValue] = (setting.choices ?? []).map { .string($0) } + [.bool(true), .bool(false)]
        values += [setting.min, setting.max].compactMap { $0 }.map { .number($0) } + [.number(1), .number(10)]
        values += [
            "127.0.0.1:2950", "/tmp/lodestone-live-settings", "22:00-07:00", "+02:00", "adaptive", "magnet@120", "ISS", "lodestone-test",
            "none", "2026-06-21T21:30:00Z", passwordFile
        ].map { .string($0) }
        values += [
            .object([("navigation.attitude", .number(2))]), .object([("still", .object([("imu", .number(7))]))]),
            .object([("imu", .number(20))])
        ]
        return setting.nullable ? [.null] + values : values
    }

    static let passwordFile = "mqtt.pass"

    /// The running configuration the rows are changed from: with an MQTT broker (its other
    /// rows need one) and a configuration folder holding a password file, as the service's.
    static func running() throws -> Configuration {
        let folder = "/tmp/lodestone-live-settings-\(getpid())"
        mkdir(folder, 0o700)
        let fd = open(folder + "/" + passwordFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0, "cannot write the password file in \(folder)")
        _ = "secret\n".withCString { Glibc.write(fd, $0, 7) }
        close(fd)
        var configuration = Configuration()
        configuration.configurationFolder = folder
        let broker = try #require(Setting.all.first { $0.key == "mqtt.broker" })
        try #require(broker.apply(.string("127.0.0.1:1883"), to: &configuration) == nil)
        return configuration
    }

    /// `running` with only `setting` moved; nil when no candidate fits.
    static func changed(_ setting: Setting, from running: Configuration) -> Configuration? {
        for value in candidates(for: setting) {
            var fresh = running
            if setting.apply(value, to: &fresh) == nil, setting.current(fresh) != setting.current(running) { return fresh }
        }
        return nil
    }

    @Test func aReloadAppliesTheRowsMarkedLiveAndNoOther() throws {
        let effects = LiveEffects.all(SystemMonotonicClock.self)
        let running = try Self.running()
        try #require(Setting.all.count >= 50, "the settings table was not read")
        for setting in Setting.all {
            guard let fresh = Self.changed(setting, from: running) else {
                Issue.record("\(setting.key): no candidate value changes it; add one to LiveSettingsTableTests.candidates")
                continue
            }
            let changes = SettingChanges(running: running, fresh: fresh)
            let applied = SettingChanges.keeping(changes.restart, of: running, in: fresh)
            let covering = effects.filter { $0.covers(setting.key) }.count
            if setting.reload == .live {
                #expect(changes.live.map(\.key).contains(setting.key), "\(setting.key) is live but a reload does not take it")
                #expect(covering == 1, "\(setting.key) is live; \(covering) parts of the device put it in force (LiveEffects), not one")
                #expect(setting.current(applied) == setting.current(fresh), "\(setting.key): a reload does not take the file's value")
            } else {
                #expect(changes.restart.map(\.key).contains(setting.key), "\(setting.key) waits for a restart but a reload does not say so")
                #expect(covering == 0, "\(setting.key) waits for a restart, yet LiveEffects puts it in force")
            }
            for other in Setting.all where other.reload == .restart {
                #expect(other.current(applied) == other.current(running), "changing \(setting.key) moved \(other.key), which waits for a restart")
            }
        }
    }

    /// The MQTT rows share one value: a file that turns the output off turns it off, however
    /// the running one was set.
    @Test func aReloadKeepsAGroupOfRowsWhole() throws {
        var running = try Self.running()
        let qos = try #require(Setting.all.first { $0.key == "mqtt.qos" })
        try #require(qos.apply(.number(0), to: &running) == nil)
        var fresh = running
        fresh.mqtt = nil
        let changes = SettingChanges(running: running, fresh: fresh)
        #expect(changes.live.map(\.key).contains("mqtt.broker"))
        #expect(SettingChanges.keeping(changes.restart, of: running, in: fresh).mqtt == nil)
    }

    @Test func aChangeIsLoggedWithItsUnit() {
        var fresh = Configuration()
        fresh.imuRateHz = 50
        fresh.listen = "127.0.0.1:2950"
        var running = Configuration()
        running.imuRateHz = 100
        let rows = Dictionary(uniqueKeysWithValues: Setting.all.map { ($0.key, $0) })
        let imu = rows["rates.imu"].map { SettingChanges.describe($0, from: running, to: fresh) }
        let listen = rows["listen"].map { SettingChanges.describe($0, from: running, to: fresh) }
        #expect(imu == "rates.imu 100 -> 50 Hz")
        #expect(listen == "listen none -> 127.0.0.1:2950")
    }
}
