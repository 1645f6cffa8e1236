import LodestoneOutputs
import Testing

/// The web server's request parser against what browsers send and what hostile clients send:
/// every limit answers with its status, and no input traps.
struct HTTPRequestParserTests {
    func parse(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPRequestParser.Outcome {
        HTTPRequestParser.parse(Array(text.utf8)[...], limits: limits)
    }

    func status(_ text: String) -> Int? {
        if case .refused(let status, _) = parse(text) { return status }
        return nil
    }

    @Test func aBrowsersRequest() throws {
        let text =
            "GET /api/v1/events?kinds=ATT%2CTPV&name=a+b HTTP/1.1\r\nHost: lodestone.local:8080\r\nAccept-Encoding: gzip, br\r\n"
            + "Cookie: theme=night; lodestone=abc123\r\nConnection: keep-alive\r\n\r\n"
        guard case .request(let request, let consumed) = parse(text) else { Issue.record("not parsed"); return }
        #expect(consumed == text.utf8.count)
        #expect(request.method == "GET" && request.path == "/api/v1/events" && request.minorVersion == 1)
        #expect(request.parameter("kinds") == "ATT,TPV" && request.parameter("name") == "a b")
        #expect(request.header("HOST") == "lodestone.local:8080")
        #expect(request.cookie("lodestone") == "abc123" && request.cookie("theme") == "night")
        #expect(request.keepAlive)
    }

    @Test func aBodyInPiecesAndTwoRequestsInARow() throws {
        let body = #"{"action":"start"}"#
        let first = "POST /api/v1/track HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        #expect(parse(first + body.prefix(5)) == .incomplete)
        let both = first + body + "GET / HTTP/1.0\r\nHost: x\r\n\r\n"
        guard case .request(let post, let consumed) = parse(both) else { Issue.record("not parsed"); return }
        #expect(String(decoding: post.body, as: UTF8.self) == body)
        let rest = Array(both.utf8)[consumed...]
        guard case .request(let get, _) = HTTPRequestParser.parse(rest) else { Issue.record("the second not parsed"); return }
        #expect(get.path == "/" && get.minorVersion == 0 && get.keepAlive == false)
    }

    /// Each limit and each malformation with its status.
    @Test(arguments: [
        ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        ("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Filler: " + String(repeating: "b", count: 1000) + "\r\n", count: 40) + "\r\n", 431),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1048577\r\n\r\n", 413),
        ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400),
        // One Host in every version: HTTP/1.0 too.
        ("GET / HTTP/1.0\r\nHost: x\r\nHost: y\r\n\r\n", 400),
        ("GET / HTTP/1.0\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nHost: x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  folded\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", 400),
        ("GET /../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET /a%00b HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET /a%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET noslash HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GE T / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{1}b\r\n\r\n", 400)
    ])
    func refusals(text: String, expected: Int) {
        #expect(status(text) == expected, "\(text.prefix(60))")
    }

    /// A request line or header section still arriving is waited for, up to its limit.
    @Test func waitsUntilALimitIsPassed() {
        #expect(parse("GET /" + String(repeating: "a", count: 8000)) == .incomplete)
        #expect(status("GET /" + String(repeating: "a", count: 8300)) == 414)
        #expect(parse("GET / HTTP/1.1\r\nHost: x\r\nX-A: " + String(repeating: "b", count: 30000)) == .incomplete)
        #expect(status("GET / HTTP/1.1\r\nHost: x\r\nX-A: " + String(repeating: "b", count: 33000)) == 431)
    }

    /// Random bytes and damaged requests never trap: each is a request, incomplete or refused.
    @Test func hostileBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let seed = Array("POST /api/v1/lock?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n{}\n".utf8)
        var outcomes = [0, 0, 0]
        for round in 0..<4000 {
            var bytes = seed
            if round % 2 == 0 {
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes[index] = UInt8.random(in: 0...255, using: &generator)
                }
            } else {
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }
            switch HTTPRequestParser.parse(bytes[...]) {
            case .request(_, let consumed): outcomes[0] += 1; #expect(consumed <= bytes.count)
            case .incomplete: outcomes[1] += 1
            case .refused(let status, _): outcomes[2] += 1; #expect((400...505).contains(status))
            }
        }
        #expect(outcomes[2] > 100)
    }
}
