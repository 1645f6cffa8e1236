import Glibc
import LodestoneCore
import LodestoneOutputs
import Testing
@testable import LodestoneEncoding

/// The phone's settings and alerts on a running device: `GET /api/v1/settings` lists exactly
/// the settings `lodestone config keys` marks live, a refused value leaves the setting and the
/// configuration file as they were, and an accepted one is in force (`GET /api/v1/device`) and
/// kept in the file; `POST /api/v1/alert` sets a rule's threshold that the socket's `?ALERT`
/// then reports, and refuses one beyond the rule's range.
@Suite(.serialized) struct WebSettingsAPITests {
    /// A paired browser's way to the device: its cookie and action token.
    struct Browser {
        let port: Int
        let cookie: String
        let token: String

        func get(_ path: String) -> (status: Int, json: JSONValue?) {
            guard let answer = WebTrackEndToEndTests.get(port: port, path, cookie: cookie) else { return (0, nil) }
            return (answer.status, try? JSONValue.parse(answer.body))
        }

        /// A POST from the page's own origin with the session's token (`token: nil` leaves it out).
        func post(_ path: String, _ body: String, token: String? = nil, withToken: Bool = true) -> (status: Int, json: JSONValue?) {
            guard let fd = EndToEndTests.connectTCP(port: port) else { return (0, nil) }
            defer { close(fd) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let request =
                "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\nConnection: close\r\n"
                + "Cookie: \(cookie)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + (withToken ? "X-Lodestone-Token: \(token ?? self.token)\r\n" : "") + "\r\n" + body
            let bytes = Array(request.utf8)
            guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else { return (0, nil) }
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while answer.count < 4_000_000 {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                answer += buffer[0..<n]
            }
            let text = String(decoding: answer, as: UTF8.self)
            guard let split = text.firstRange(of: "\r\n\r\n") else { return (0, nil) }
            let status = text[..<split.lowerBound].split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return (status, try? JSONValue.parse(String(text[split.upperBound...])))
        }
    }

    /// The first report of `kind` after sending `request`.
    func ask(_ client: ReportClient, _ request: String, kind: String) -> JSONValue? {
        client.send(request)
        let deadline = time(nil) + 10
        while time(nil) < deadline, let line = client.readLine(timeoutMilliseconds: 2000) {
            guard let report = try? JSONValue.parse(line) else { continue }
            if report["class"]?.stringValue == kind { return report }
        }
        return nil
    }

    /// A browser paired through the socket's `?WEBPAIR;`, as `lodestone web pair` pairs one.
    func pair(_ client: ReportClient, port: Int) throws -> Browser {
        let pairing = try #require(ask(client, "?WEBPAIR;", kind: "PAIRING"))
        let url = try #require(pairing["url"]?.stringValue)
        let code = try #require(url.split(separator: "=").last.map(String.init))
        let paired = try #require(WebTrackEndToEndTests.get(port: port, "/pair?code=" + code))
        let cookieLine = try #require(paired.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
        let cookie = String(try #require(cookieLine.dropFirst("set-cookie:".count).split(separator: ";").first).drop { $0 == " " })
        let session = try #require(WebTrackEndToEndTests.get(port: port, "/api/v1/session", cookie: cookie))
        let token = try #require((try? JSONValue.parse(session.body))?["token"]?.stringValue)
        return Browser(port: port, cookie: cookie, token: token)
    }

    static func value(_ settings: JSONValue?, _ key: String) -> JSONValue? {
        settings?["settings"]?.arrayValue?.first { $0["key"]?.stringValue == key }?["value"]
    }

    @Test func theLiveSettingsAreTheTablesAndAChangeIsInForceAndKept() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-web-settings-\(getpid())"
        defer { removeTree(data) }
        try #require(makeDirectories(data))
        let file = data + "/lodestone.json"
        // A file as a person writes it: a comment, a setting, an object of settings.
        let written = #"{"// what this is": "the device's settings", "theme": "day", "sounds": {"mute": false}}"#
        try #require(writeFileAtomically(file, Array(written.utf8)))

        // What `lodestone config keys --json` marks live.
        let keys = end.finish(try end.spawn(["config", "keys", "--json"]))
        let table = try #require(try JSONValue.parse(keys.output).arrayValue)
        let live = table.filter { $0["reload"]?.stringValue == "live" }.compactMap { $0["key"]?.stringValue }
        try #require(live.count > 20, "config keys names too few live settings: \(live)")

        let socket = data + ".sock"
        let port = EndToEndTests.freePort()
        let child = try end.spawn([
            "run", "--scenario", "walk", "--speed", "60", "--socket", socket, "--display", "none", "--config", file,
            "--data-dir", data + "/store", "--duration", "7200", "--http", "127.0.0.1:\(port)"
        ])
        defer { kill(child.pid, SIGTERM); _ = end.finish(child) }
        let client = try #require(end.connect(socket, to: child))
        let browser = try pair(client, port: port)

        let listed = browser.get("/api/v1/settings")
        try #require(listed.status == 200, "GET /api/v1/settings: \(listed.status)")
        let listedKeys = (listed.json?["settings"]?.arrayValue ?? []).compactMap { $0["key"]?.stringValue }
        #expect(listedKeys == live, "the page's settings are the live ones of config keys, in its order")
        #expect(listed.json?["file"]?.stringValue == file)
        let qnh = try #require(listed.json?["settings"]?.arrayValue?.first { $0["key"]?.stringValue == "qnh" })
        #expect(qnh["unit"]?.stringValue == "hPa" && qnh["min"]?.numberValue == 850 && qnh["max"]?.numberValue == 1100)
        #expect(qnh["help"]?.stringValue?.isEmpty == false)
        #expect(listed.json?["settings"]?.arrayValue?.first { $0["key"]?.stringValue == "mqtt.password" }?["value"] == nil, "a password is never shown")
        let qnhBefore = try #require(Self.value(listed.json, "qnh")?.numberValue)

        // Refused: out of range, the wrong type, a key a reload does not take, no token.
        for (body, status) in [
            (#"{"key":"qnh","value":2000}"#, 422), (#"{"key":"units","value":"furlongs"}"#, 422),
            (#"{"key":"rates.imu","value":"fast"}"#, 422), (#"{"key":"dataDir","value":"/tmp"}"#, 404), (#"{"value":1}"#, 400)
        ] {
            let refused = browser.post("/api/v1/settings", body)
            #expect(refused.status == status, "\(body): \(refused.status) \(String(describing: refused.json))")
            #expect(refused.json?["class"]?.stringValue == "ERROR" && (refused.json?["message"]?.stringValue?.count ?? 0) > 10, "a sentence says why")
        }
        #expect(browser.post("/api/v1/settings", #"{"key":"units","value":"imperial"}"#, withToken: false).status == 403)
        let after = browser.get("/api/v1/settings")
        #expect(Self.value(after.json, "qnh")?.numberValue == qnhBefore, "a refused value leaves the setting as it was")
        #expect(Self.value(after.json, "units") == .null)
        #expect(String(decoding: EndToEndTests.readFile(file), as: UTF8.self) == written, "a refused value leaves the file as it was")

        // Accepted: in force at once, and kept in the file beside what it held.
        let changed = browser.post("/api/v1/settings", #"{"key":"units","value":"imperial"}"#)
        #expect(changed.status == 200, "\(String(describing: changed.json))")
        #expect(Self.value(changed.json, "units")?.stringValue == "imperial")
        #expect(browser.get("/api/v1/device").json?["units"]?.stringValue == "imperial", "the device shows the new units")
        let muted = browser.post("/api/v1/settings", #"{"key":"sounds.mute","value":true}"#)
        #expect(Self.value(muted.json, "sounds.mute")?.boolValue == true)
        let qnhSet = browser.post("/api/v1/settings", #"{"key":"qnh","value":1020.5}"#)
        #expect(Self.value(qnhSet.json, "qnh")?.numberValue == 1020.5)
        let kept = try JSONValue.parse(String(decoding: EndToEndTests.readFile(file), as: UTF8.self))
        #expect(kept["units"]?.stringValue == "imperial" && kept["qnh"]?.numberValue == 1020.5)
        #expect(kept["sounds"]?["mute"]?.boolValue == true && kept["theme"]?.stringValue == "day")
        #expect(kept["// what this is"]?.stringValue == "the device's settings", "the file's comment is kept")
        // The socket's BARO says the reference the device now runs with.
        #expect(ask(client, "?BARO;", kind: "BARO")?["qnh"]?.numberValue == 1020.5)
    }

    @Test func anAlertsThresholdFromThePageIsTheDevicesAndOneOutOfRangeIsRefused() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-web-alertset-\(getpid())"
        defer { removeTree(data) }
        let socket = data + ".sock"
        let port = EndToEndTests.freePort()
        let child = try end.spawn([
            "run", "--scenario", "walk", "--speed", "60", "--socket", socket, "--display", "none",
            "--data-dir", data, "--duration", "7200", "--http", "127.0.0.1:\(port)"
        ])
        defer { kill(child.pid, SIGTERM); _ = end.finish(child) }
        let client = try #require(end.connect(socket, to: child))
        let browser = try pair(client, port: port)

        let set = browser.post("/api/v1/alert", #"{"name":"altitudeReached","enabled":true,"threshold":2500}"#)
        #expect(set.status == 200, "\(String(describing: set.json))")
        let rule = { (report: JSONValue?) in report?["rules"]?.arrayValue?.first { $0["name"]?.stringValue == "altitudeReached" } }
        let onSocket = try #require(rule(ask(client, "?ALERT;", kind: "ALERT")))
        #expect(onSocket["threshold"]?.numberValue == 2500 && onSocket["enabled"]?.boolValue == true)
        #expect(onSocket["min"]?.numberValue == -500 && onSocket["max"]?.numberValue == 9000, "the range ?ALERT takes")
        #expect(onSocket["armed"]?.boolValue == true)
        let read = try #require(rule(browser.get("/api/v1/alerts").json))
        #expect(read["threshold"]?.numberValue == 2500)

        let refused = browser.post("/api/v1/alert", #"{"name":"altitudeReached","threshold":12000}"#)
        #expect(refused.status == 422 && refused.json?["message"]?.stringValue?.contains("-500") == true, "\(String(describing: refused.json))")
        #expect(rule(ask(client, "?ALERT;", kind: "ALERT"))?["threshold"]?.numberValue == 2500, "a refused threshold leaves the rule as it was")

        // Without a configuration file a live setting still takes effect, until the next start.
        let theme = browser.post("/api/v1/settings", #"{"key":"theme","value":"night"}"#)
        #expect(theme.status == 200 && Self.value(theme.json, "theme")?.stringValue == "night")
        #expect(theme.json?["file"] == nil)
        #expect(Self.value(browser.get("/api/v1/settings").json, "theme")?.stringValue == "night")
    }
}
