import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneStorage
import Testing

/// One zone on every face: the display's header and the sky page agree with each other and
/// with the Sun's times worked out here for the place, in the scenario's zone unless the
/// configuration gives one, on a 24-hour clock unless it says 12h; a reload changes the zone
/// everywhere at once, and a configuration without one goes back to the scenario's place's.
@Suite(.serialized) struct OneZoneTests {
    let end = EndToEndTests()

    /// The sky page's text runs on the simulated boat (off Marseille), with `configuration`.
    func skyPage(configuration: String?) throws -> [String] {
        let base = "/tmp/lodestone-zone-\(getpid())"
        defer { unlink(base + ".png"); unlink(base + ".json"); unlink(base + ".config") }
        var arguments = ["screenshot", "--page", "sky", "--size", "480x320", "--scenario", "boat", "--out", base + ".png", "--layout-json", base + ".json"]
        if let configuration {
            try #require(ConfigurationReloadTests.save(configuration, to: base + ".config"))
            arguments += ["--config", base + ".config"]
        }
        let (status, output) = end.finish(try end.spawn(arguments))
        #expect(status == 0, "\(output)")
        let runs = try JSONValue.parse(String(decoding: readFileBytes(base + ".json") ?? [], as: UTF8.self))["texts"]?.arrayValue ?? []
        return runs.compactMap { $0["text"]?.stringValue }
    }

    /// The Sun's rise off Marseille on the trip's day, as a clock in `zone` shows it.
    static func sunrise(zone: String, twelveHour: Bool) throws -> String {
        let rules = try TimeZoneRules(zone)
        let start = rules.midnight(year: 2026, month: 6, day: 21), end = rules.midnight(year: 2026, month: 6, day: 22)
        let events = SunEvents.of(dayFrom: start, to: end, latitude: 43.26, longitude: 5.3)
        return LocalClock.timeOfDay(try #require(events.sunrise), zone: rules, twelveHour: twelveHour)
    }

    /// The text after `label` on the page.
    static func after(_ label: String, in texts: [String]) -> String? {
        texts.firstIndex(of: label).flatMap { texts.indices.contains($0 + 1) ? texts[$0 + 1] : nil }
    }

    @Test func theHeaderAndTheSkyAreInTheScenariosZone() throws {
        guard (try? TimeZoneRules("Europe/Paris")) != nil else {
            print("skipped: /usr/share/zoneinfo has no Europe/Paris (install tzdata)")
            return
        }
        let texts = try skyPage(configuration: nil)
        // The trip starts at 08:00 UTC: 10:00 in Marseille's summer time, a few seconds later.
        #expect(texts.contains { $0.hasPrefix("10:0") && $0.hasSuffix(" CEST") }, "the header's time and zone: \(texts.prefix(6))")
        #expect(Self.after("sunrise", in: texts) == (try Self.sunrise(zone: "Europe/Paris", twelveHour: false)), "\(texts)")
    }

    @Test func aConfiguredZoneOnATwelveHourClock() throws {
        guard (try? TimeZoneRules("Europe/London")) != nil else {
            print("skipped: /usr/share/zoneinfo has no Europe/London (install tzdata)")
            return
        }
        let texts = try skyPage(configuration: #"{"timeZone": "Europe/London", "clock": "12h"}"#)
        #expect(texts.contains { $0.hasPrefix("9:0") && $0.hasSuffix(" am BST") }, "the header's time and zone: \(texts.prefix(6))")
        let sunrise = try Self.sunrise(zone: "Europe/London", twelveHour: true)
        #expect(sunrise.hasSuffix(" am") && Self.after("sunrise", in: texts) == sunrise, "\(sunrise): \(texts)")
    }

    /// GET `path` from the web app on `port` (open to read without a pairing): the body.
    static func get(_ path: String, port: Int) -> String {
        guard let fd = EndToEndTests.connectTCP(port: port) else { return "" }
        defer { close(fd) }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        _ = request.withCString { write(fd, $0, strlen($0)) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer.prefix(n)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.firstRange(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
    }

    @Test func aReloadChangesTheZoneLive() throws {
        guard (try? TimeZoneRules("Asia/Tokyo")) != nil else {
            print("skipped: /usr/share/zoneinfo has no Asia/Tokyo (install tzdata)")
            return
        }
        let file = "/tmp/lodestone-zone-live-\(getpid()).json", data = "/tmp/lodestone-zone-live-\(getpid())"
        defer { unlink(file); removeTree(data) }
        let port = EndToEndTests.freePort()
        func configuration(_ zone: String) -> String { #"{"http": {"listen": "127.0.0.1:\#(port)", "access": "open-read"}\#(zone)}"# }
        try #require(ConfigurationReloadTests.save(configuration(#", "timeZone": "Asia/Tokyo""#), to: file))
        let child = try end.spawn([
            "run", "--config", file, "--scenario", "walk", "--duration", "20", "--display", "none", "--socket", data + ".sock", "--data-dir", data
        ])
        _ = end.connect(data + ".sock", to: child)
        func device() -> JSONValue? { try? JSONValue.parse(Self.get("/api/v1/device", port: port)) }
        let before = device()
        try #require(ConfigurationReloadTests.save(configuration(#", "timeZone": "America/New_York", "clock": "12h""#), to: file))
        kill(child.pid, SIGHUP)
        usleep(1_500_000)
        let changed = device()
        try #require(ConfigurationReloadTests.save(configuration(""), to: file))
        kill(child.pid, SIGHUP)
        usleep(1_500_000)
        let unset = device()
        kill(child.pid, SIGTERM)
        let (_, output) = end.finish(child)
        #expect(before?["timeZone"]?.stringValue == "Asia/Tokyo" && before?["zoneAbbreviation"]?.stringValue == "JST", "\(String(describing: before))")
        #expect(before?["zoneSource"]?.stringValue == "configuration" && before?["clock"]?.stringValue == "24h")
        #expect(changed?["timeZone"]?.stringValue == "America/New_York" && changed?["clock"]?.stringValue == "12h", "\(String(describing: changed))")
        #expect(output.contains("times are shown in America/New_York (EDT) on a 12h clock"), "\(output)")
        // Without the setting, the walk's place again (Zurich), from the scenario.
        #expect(unset?["timeZone"]?.stringValue == "Europe/Zurich" && unset?["zoneSource"]?.stringValue == "scenario", "\(String(describing: unset))")
    }
}

/// The sky page without a fix: the configured observer's place, said as such.
@Suite struct SkyPlaceSaidTests {
    @Test func withoutAFixTheSkyIsTheConfiguredPlaceAndSaysSo() throws {
        let end = EndToEndTests()
        let file = "/tmp/lodestone-sky-place-\(getpid()).json", data = "/tmp/lodestone-sky-place-\(getpid())"
        defer { unlink(file); removeTree(data) }
        let port = EndToEndTests.freePort()
        try #require(
            ConfigurationReloadTests.save(
                #"{"http": {"listen": "127.0.0.1:\#(port)", "access": "open-read"}, "observer": {"latitude": 46.5, "longitude": 7.9}}"#, to: file))
        // The receiver says nothing from the start: no fix, no last one in a fresh data folder.
        let child = try end.spawn([
            "run", "--config", file, "--scenario", "still", "--fault", "gps-silence@0+60", "--duration", "8", "--display", "none",
            "--socket", data + ".sock", "--data-dir", data
        ])
        _ = end.connect(data + ".sock", to: child)
        let sky = try? JSONValue.parse(OneZoneTests.get("/api/v1/sky", port: port))
        kill(child.pid, SIGTERM)
        _ = end.finish(child)
        #expect(sky?["placeSource"]?.stringValue == "configured", "\(String(describing: sky))")
        #expect(sky?["latitude"]?.numberValue == 46.5 && sky?["longitude"]?.numberValue == 7.9, "\(String(describing: sky))")
    }
}
