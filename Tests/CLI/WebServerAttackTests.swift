import Glibc
import LodestoneBench
import LodestoneCore
import LodestoneOutputs
import LodestoneReports
import Testing

/// The web server against hostile clients, in this process on a loopback port with raw
/// sockets: what clients send can make it do only a bounded round of work and hold only a
/// bounded amount of memory, one address gets only its share, a full table makes room for a
/// paired browser, and a forgotten browser's stream ends at once.
@Suite(.serialized) struct WebServerAttackTests {
    /// A raw client: a blocking connect, then non-blocking sends and reads.
    final class RawClient {
        let fd: Int32
        var received: [UInt8] = []
        private(set) var closedByServer = false

        init?(port: Int) {
            guard let fd = Loopback.connect(port: port) else { return nil }
            self.fd = fd
        }

        /// Sends what the socket takes of `bytes` now; how many it took.
        @discardableResult
        func send(_ bytes: ArraySlice<UInt8>) -> Int {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            return max(0, count)
        }

        func send(_ text: String) { send(Array(text.utf8)[...]) }

        /// Reads what has arrived (noting a close by the server).
        func drain() {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count == 0 { closedByServer = true }
                if count < 0 && errno == ECONNRESET { closedByServer = true }
                guard count > 0 else { return }
                received += buffer[0..<count]
            }
        }

        var text: String { String(decoding: received, as: UTF8.self) }
        func close() { Glibc.close(fd) }
    }

    /// Runs the server's rounds, with `between` after each, until `done` or `rounds` have passed.
    func serve(_ server: WebServer, rounds: Int = 200, between: () -> Void = {}, until done: () -> Bool = { false }) {
        for _ in 0..<rounds {
            server.service()
            between()
            if done() { return }
            usleep(2_000)
        }
    }

    static let styleRequest = "GET /style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// Eight clients each pipelining 20,000 requests and reading nothing: every round answers
    /// at most its share, nothing is answered for a client whose answer waits unread, and what
    /// the server holds stays within one answer and one read per connection.
    @Test func pipeliningClientsThatDoNotReadCostABoundedRound() throws {
        var settings = WebClientBench.oneAddress
        settings.stallSeconds = 3600
        let (server, port) = try #require(WebClientBench.loopbackServer(settings: settings))
        defer { server.shutdown() }
        let answer = HTTPResponse.text(200, String(repeating: "css ", count: 2_000))
        var answered = 0
        server.answer = { _ in
            answered += 1
            return .response(answer)
        }
        let flood = Array(String(repeating: Self.styleRequest, count: 20_000).utf8)
        var clients: [(RawClient, Int)] = []
        for _ in 0..<8 { clients.append((try #require(RawClient(port: port)), 0)) }
        defer { for (client, _) in clients { client.close() } }
        var mostInARound = 0
        var mostHeld = 0
        var answeredBy300 = 0
        for round in 0..<400 {
            if round == 300 { answeredBy300 = answered }
            for index in clients.indices where clients[index].1 < flood.count {
                clients[index].1 += clients[index].0.send(flood[clients[index].1...])
            }
            let before = answered
            server.service()
            mostInARound = max(mostInARound, answered - before)
            mostHeld = max(mostHeld, server.heldBytes)
        }
        #expect(mostInARound <= settings.requestsPerRound, "a round answered \(mostInARound) requests")
        // The kernel's buffers take some answers; once they are full, none more is built.
        #expect(answered == answeredBy300, "\(answered - answeredBy300) answers built in the last 100 rounds for clients that read none")
        let perConnection = answer.serialized(keepAlive: true).count + 4 * 16 * 1024 + settings.limits.requestLine
        #expect(mostHeld <= 8 * perConnection, "the server held \(mostHeld) bytes for eight clients")
        // A browser that reads is answered all the same.
        let browser = try #require(RawClient(port: port))
        defer { browser.close() }
        browser.send(Self.styleRequest)
        serve(server, between: browser.drain) { browser.text.hasPrefix("HTTP/1.1 200") }
        #expect(browser.text.hasPrefix("HTTP/1.1 200"), "a reading browser beside them: \(browser.text.prefix(80))")
    }

    /// One address holds `connectionsPerAddress` connections and `streamsPerAddress` event
    /// streams; the next is told 429, and its neighbours go on.
    @Test func oneAddressGetsItsShare() throws {
        var settings = WebServer.Settings()
        (settings.connectionsPerAddress, settings.streamsPerAddress) = (6, 2)
        let (server, port) = try #require(WebClientBench.loopbackServer(settings: settings))
        defer { server.shutdown() }
        server.answer = { request in request.path == "/events" ? .events([.attitude]) : .response(.text(200, "ok")) }
        var streams: [RawClient] = []
        defer { for client in streams { client.close() } }
        for _ in 0..<3 {
            let client = try #require(RawClient(port: port))
            client.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            streams.append(client)
            serve(server, rounds: 50, between: client.drain) { !client.received.isEmpty }
        }
        #expect(streams.prefix(2).allSatisfy { $0.text.hasPrefix("HTTP/1.1 200") && $0.text.contains("text/event-stream") })
        #expect(streams.last?.text.hasPrefix("HTTP/1.1 429") == true, "the third stream: \(streams.last?.text.prefix(80) ?? "")")
        var held: [RawClient] = []
        defer { for client in held { client.close() } }
        for _ in 0..<4 {
            held.append(try #require(RawClient(port: port)))
            serve(server, rounds: 5)
        }
        // Two streams and four idle: the address's six. The seventh is refused.
        let seventh = try #require(RawClient(port: port))
        defer { seventh.close() }
        seventh.send(Self.styleRequest)
        serve(server, between: seventh.drain) { !seventh.received.isEmpty }
        #expect(seventh.text.hasPrefix("HTTP/1.1 429"), "the seventh connection: \(seventh.text.prefix(80))")
        #expect(server.refusedConnections == 1)
    }

    /// 64 idle connections fill the table: a paired browser's connection still gets in, in
    /// place of the idlest connection no paired browser has used; the paired stay.
    @Test func aFullTableMakesRoomForAPairedBrowser() throws {
        var settings = WebClientBench.oneAddress
        settings.maximumConnections = 16
        let (server, port) = try #require(WebClientBench.loopbackServer(settings: settings))
        defer { server.shutdown() }
        server.answer = { _ in .response(.text(200, "ok")) }
        server.identify = { $0.cookie("lodestone") == "good" ? "b1" : nil }
        let paired = try #require(RawClient(port: port))
        defer { paired.close() }
        paired.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: lodestone=good\r\n\r\n")
        serve(server, between: paired.drain) { !paired.received.isEmpty }
        var idle: [RawClient] = []
        defer { for client in idle { client.close() } }
        for _ in 0..<15 {
            idle.append(try #require(RawClient(port: port)))
            serve(server, rounds: 2)
        }
        #expect(server.clientCount == 16)
        let newcomer = try #require(RawClient(port: port))
        defer { newcomer.close() }
        newcomer.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: lodestone=good\r\n\r\n")
        serve(server, between: newcomer.drain) { !newcomer.received.isEmpty }
        #expect(newcomer.text.hasPrefix("HTTP/1.1 200"), "the newcomer: \(newcomer.text.prefix(80))")
        #expect(server.evictedConnections == 1 && server.clientCount == 16)
        // The first idle one went; the paired browser's connection is still served.
        idle.first?.drain()
        #expect(idle.first?.closedByServer == true)
        paired.received.removeAll()
        paired.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        serve(server, between: paired.drain) { !paired.received.isEmpty }
        #expect(paired.text.hasPrefix("HTTP/1.1 200"))
    }

    /// Forgetting a browser closes its open event stream at once.
    @Test func aForgottenBrowsersStreamEnds() throws {
        let (server, port) = try #require(WebClientBench.loopbackServer())
        defer { server.shutdown() }
        server.answer = { $0.cookie("lodestone") == "good" ? .events([.attitude], browser: "b1") : .events([.attitude]) }
        let forgotten = try #require(RawClient(port: port))
        let other = try #require(RawClient(port: port))
        defer {
            forgotten.close()
            other.close()
        }
        forgotten.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: lodestone=good\r\n\r\n")
        other.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        serve(server, until: { server.streamCount == 2 })
        #expect(server.disconnect(browser: "b1") == 1)
        for report in WebClientBench.reports(tick: 0) { server.publish(report) }
        serve(
            server, rounds: 20,
            between: {
                forgotten.drain()
                other.drain()
            })
        #expect(forgotten.closedByServer && !forgotten.text.contains("id: "), "the forgotten browser had: \(forgotten.text.suffix(120))")
        #expect(!other.closedByServer && other.text.contains("id: 1"))
    }
}
