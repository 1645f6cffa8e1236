import Glibc
import LodestoneCore
import LodestoneOutputs
import Testing
@testable import LodestoneEncoding

/// The web track page's source against the recorder on a simulated walk: a recording started
/// on the socket, `GET /api/v1/track` fetched twice (as a reload, or a second browser, would)
/// gives the recorder's own points, distance, name and start each time (the socket's ?TRACK;
/// read just before and after), the same first point of the line, and a line that grew.
@Suite(.serialized) struct WebTrackEndToEndTests {
    /// The first report of `kind` after sending `request` (nil when none comes).
    func ask(_ client: ReportClient, _ request: String, kind: String) -> JSONValue? {
        client.send(request)
        let deadline = time(nil) + 10
        while time(nil) < deadline, let line = client.readLine(timeoutMilliseconds: 2000) {
            guard let report = try? JSONValue.parse(line) else { continue }
            if report["class"]?.stringValue == kind { return report }
        }
        return nil
    }

    /// An HTTP/1.1 GET on loopback: the status, the header block and the body.
    static func get(port: Int, _ path: String, cookie: String? = nil) -> (status: Int, head: String, body: String)? {
        guard let fd = EndToEndTests.connectTCP(port: port) else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n" + (cookie.map { "Cookie: \($0)\r\n" } ?? "") + "\r\n"
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else { return nil }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while answer.count < 4_000_000 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            answer += buffer[0..<n]
        }
        let text = String(decoding: answer, as: UTF8.self)
        guard let split = text.firstRange(of: "\r\n\r\n") else { return nil }
        let head = String(text[..<split.lowerBound])
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, head, String(text[split.upperBound...]))
    }

    @Test func aReloadShowsTheRecordersLine() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-web-track-e2e-\(getpid())"
        defer { removeTree(data) }
        let socket = data + ".sock"
        let port = EndToEndTests.freePort()
        let child = try end.spawn([
            "run", "--scenario", "walk", "--speed", "5", "--socket", socket, "--display", "none",
            "--data-dir", data, "--duration", "60", "--http", "127.0.0.1:\(port)"
        ])
        defer { kill(child.pid, SIGTERM); _ = end.finish(child) }
        let client = try #require(end.connect(socket, to: child))
        let started = try #require(ask(client, #"?TRACK={"action":"start","name":"Reload walk"};"#, kind: "TRACK"))
        #expect(started["state"]?.stringValue == "recording", "\(started)")
        // A browser paired with the address `lodestone web pair` prints.
        let pairing = try #require(ask(client, "?WEBPAIR;", kind: "PAIRING"))
        let url = try #require(pairing["url"]?.stringValue)
        let code = try #require(url.split(separator: "=").last.map(String.init))
        let paired = try #require(Self.get(port: port, "/pair?code=" + code))
        let cookieLine = try #require(paired.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
        let cookie = String(try #require(cookieLine.dropFirst("set-cookie:".count).split(separator: ";").first).drop { $0 == " " })
        #expect(Self.get(port: port, "/api/v1/track")?.status == 401, "the recording is the paired browsers' only")

        var answers: [JSONValue] = []
        for _ in 0..<2 {
            usleep(4_000_000)
            // A second reload once the walk has added points (a loaded machine runs the
            // simulation behind its pace): up to half a minute.
            if let shown = answers.first?["points"]?.numberValue {
                for _ in 0..<60 {
                    if let now = ask(client, "?TRACK;", kind: "TRACK")?["points"]?.numberValue, now > shown { break }
                    usleep(500_000)
                }
            }
            // The recorder's figures just before and just after the fetch: a fetch between two
            // points is tried again.
            for _ in 0..<20 {
                let before = try #require(ask(client, "?TRACK;", kind: "TRACK"))
                let fetched = try #require(Self.get(port: port, "/api/v1/track", cookie: cookie))
                let after = try #require(ask(client, "?TRACK;", kind: "TRACK"))
                let body = String(fetched.body.prefix(300))
                try #require(fetched.status == 200, "\(fetched.status) \(body)")
                let answer = try JSONValue.parse(fetched.body)
                guard before["points"]?.numberValue == after["points"]?.numberValue else { continue }
                #expect(
                    answer["points"]?.numberValue == before["points"]?.numberValue,
                    "\(answer["points"]?.numberValue ?? -1) against the recorder's \(before["points"]?.numberValue ?? -1)")
                #expect(answer["distance"]?.numberValue == before["distance"]?.numberValue)
                #expect(answer["name"]?.stringValue == "Reload walk" && answer["started"]?.stringValue == before["started"]?.stringValue)
                #expect(answer["climb"]?.numberValue == before["climb"]?.numberValue && answer["movingTime"]?.numberValue == before["movingTime"]?.numberValue)
                for bad in ["nan", "null"] { #expect(!fetched.body.lowercased().contains(bad)) }
                answers.append(answer)
                break
            }
        }
        try #require(answers.count == 2, "the recorder never stood still long enough for a comparison")
        let (first, second) = (answers[0], answers[1])
        #expect((second["points"]?.numberValue ?? 0) > (first["points"]?.numberValue ?? 0), "the walk should add points between the reloads")
        let firstLine = try #require(first["path"]?.arrayValue), secondLine = try #require(second["path"]?.arrayValue)
        #expect(!firstLine.isEmpty && firstLine.count <= 500 && secondLine.count <= 500)
        let a = (firstLine.first?.arrayValue ?? []).compactMap { $0.numberValue }
        let b = (secondLine.first?.arrayValue ?? []).compactMap { $0.numberValue }
        #expect(a.count == 2 && a == b, "the line starts where the track starts, on every reload")
        #expect(Double(secondLine.count) == min(500, second["points"]?.numberValue ?? 0), "every point drawn while under 500")
        _ = ask(client, #"?TRACK={"action":"stop"};"#, kind: "TRACK")
    }
}
