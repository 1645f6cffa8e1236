import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneStorage
import Testing

/// The web app's seasons, eclipses and snapshots answer what the command-line tool prints for
/// the same request (`lodestone seasons|eclipses|snapshot ... --json`), and refuse numbers
/// out of range without harm.
@Suite(.serialized) struct SkySnapshotAPITests {
    let end = EndToEndTests()

    /// Two snapshots a quarter of an hour and 1.2 km apart, written where the device keeps them.
    static func keepSnapshots(in data: String) throws {
        let store = SnapshotStore(dataDirectory: data)
        var first = Snapshot(id: "20261201-090000", timestamp: 1_764_579_600, name: "Col", notes: "wind from the west")
        (first.latitude, first.longitude, first.altitude, first.pressure, first.temperature) = (46.5, 7.9, 2200, 780.5, 3.5)
        var second = Snapshot(id: "20261201-091500", timestamp: 1_764_580_500, name: "Hut", notes: "")
        (second.latitude, second.longitude, second.altitude, second.pressure, second.temperature) = (46.51, 7.9, 2150, 785.1, 4.0)
        try store.save(first)
        try store.save(second)
    }

    /// The whole HTTP answer to `GET path`, its status line first.
    static func whole(_ path: String, port: Int) -> String {
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
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The tool's stdout for `arguments`, as JSON.
    func tool(_ arguments: [String]) throws -> JSONValue {
        let (status, output) = try EclipsesCommandTests.run(arguments)
        #expect(status == 0, "\(arguments): \(output)")
        return try JSONValue.parse(output)
    }

    @Test func eachAnswerIsTheToolsJSON() throws {
        let file = "/tmp/lodestone-skysnap-\(getpid()).json", data = "/tmp/lodestone-skysnap-\(getpid())"
        defer { unlink(file); removeTree(data) }
        try Self.keepSnapshots(in: data)
        let port = EndToEndTests.freePort()
        try #require(
            ConfigurationReloadTests.save(
                #"{"http": {"listen": "127.0.0.1:\#(port)", "access": "open-read"}, "observer": {"latitude": 46.5, "longitude": 7.9}, "timeZone": "+01:00"}"#,
                to: file))
        // No fix: the sky is the configured observer's, the place the tool is given below.
        let child = try end.spawn([
            "run", "--config", file, "--scenario", "still", "--fault", "gps-silence@0+60", "--duration", "10", "--display", "none",
            "--socket", data + ".sock", "--data-dir", data
        ])
        _ = end.connect(data + ".sock", to: child)
        func get(_ path: String) -> JSONValue? { try? JSONValue.parse(OneZoneTests.get(path, port: port)) }
        func status(_ path: String) -> String { String(Self.whole(path, port: port).prefix(12)) }
        let eclipses = get("/api/v1/eclipses?from=2026-01-01&count=4")
        let seasons = get("/api/v1/seasons?from=2026-01-01&count=6")
        let list = get("/api/v1/snapshots")
        let one = get("/api/v1/snapshots/20261201-090000")
        let compared = get("/api/v1/snapshots/compare?from=20261201-090000&to=20261201-091500")
        let csv = OneZoneTests.get("/api/v1/snapshots/export?format=csv", port: port)
        let refusals = [
            "/api/v1/eclipses?count=0", "/api/v1/eclipses?count=21", "/api/v1/eclipses?from=1800-01-01", "/api/v1/seasons?count=401",
            "/api/v1/seasons?lat=91&lon=0", "/api/v1/sunpath?date=2026-13-40", "/api/v1/snapshots/export?format=xml"
        ].map { ($0, status($0)) }
        let missing = [
            status("/api/v1/snapshots/20261201-120000"), status("/api/v1/snapshots/" + String(repeating: "9", count: 300)),
            status("/api/v1/snapshots/compare?from=x&to=y")
        ]
        let path = get("/api/v1/sunpath?date=2026-06-21")
        kill(child.pid, SIGTERM)
        _ = end.finish(child)

        let place = ["--lat", "46.5", "--lon", "7.9", "--tz", "+01:00", "--json"]
        let toolEclipses = try tool(["eclipses", "--from", "2026-01-01", "--count", "4"] + place)
        #expect(eclipses != nil && eclipses == toolEclipses, "\(String(describing: eclipses))")
        #expect(eclipses?.arrayValue?.count == 4)
        let toolSeasons = try tool(["seasons", "--from", "2026-01-01", "--count", "6", "--lat", "46.5", "--tz", "+01:00", "--json"])
        #expect(seasons != nil && seasons == toolSeasons, "\(String(describing: seasons))")
        #expect(seasons?["upcoming"]?.arrayValue?.first?["name"]?.stringValue == "March equinox")
        let toolList = try tool(["snapshot", "list", "--json", "--data-dir", data])
        #expect(list != nil && list == toolList, "\(String(describing: list))")
        #expect(list?.arrayValue?.count == 2)
        let toolOne = try tool(["snapshot", "show", "20261201-090000", "--data-dir", data])
        #expect(one != nil && one == toolOne)
        let toolCompared = try tool(["snapshot", "compare", "20261201-090000", "20261201-091500", "--json", "--data-dir", data])
        #expect(compared != nil && compared == toolCompared, "\(String(describing: compared))")
        #expect(compared?["deltas"]?["location.altitude"]?.numberValue == -50)
        let (csvStatus, toolCSV) = try EclipsesCommandTests.run(["snapshot", "export", "--format", "csv", "--data-dir", data])
        #expect(csvStatus == 0 && csv == toolCSV && csv.hasPrefix("id,timestamp,name"), "\(csv)")
        for (request, answer) in refusals { #expect(answer.hasSuffix("400"), "\(request): \(answer)") }
        for answer in missing { #expect(answer.hasSuffix("404"), "\(answer)") }
        // Midsummer at 46.5° N: the Sun culminates near 67° in the south, every 10 minutes of the day.
        let points = path?["points"]?.arrayValue ?? []
        #expect(points.count == 145, "\(points.count)")
        let highest = points.compactMap { $0.arrayValue?.first?.numberValue }.max() ?? 0
        #expect(abs(highest - 67) < 1, "\(highest)")
    }
}
