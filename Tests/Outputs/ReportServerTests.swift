import Glibc
import LodestoneOutputs
import Testing

/// The socket server with real clients on a real Unix socket.
@Suite(.serialized) struct ReportServerTests {
    func socketPath(_ name: String) -> String { "/tmp/lodestone-test-\(getpid())-\(name).sock" }

    /// Services the server until `client` has a line, or gives up after a second.
    func nextLine(_ server: ReportServer, _ client: ReportClient) -> String? {
        for _ in 0..<100 {
            server.service(timeoutMilliseconds: 10)
            if let line = client.readLine(timeoutMilliseconds: 0) { return line }
        }
        return nil
    }

    @Test func speaksTheGPSDHandshake() throws {
        let server = try ReportServer(path: socketPath("handshake"))
        defer { server.shutdown() }
        server.answer = { request in request == .devices ? [GPSDReports.devices([])] : [] }
        let client = try ReportClient(path: server.path)
        let version = try #require(nextLine(server, client))
        #expect(version.hasPrefix(#"{"class":"VERSION""#))
        #expect(version.contains(#""proto_major":3"#))
        client.send(#"?WATCH={"enable":true,"json":true};"#)
        #expect(nextLine(server, client)?.hasPrefix(#"{"class":"DEVICES""#) == true)
        #expect(nextLine(server, client) == #"{"class":"WATCH","enable":true,"json":true}"#)
        server.broadcast(#"{"class":"TPV","mode":3}"#)
        #expect(nextLine(server, client) == #"{"class":"TPV","mode":3}"#)
    }

    @Test func onlyWatchingClientsGetTheStream() throws {
        let server = try ReportServer(path: socketPath("watching"))
        defer { server.shutdown() }
        let idle = try ReportClient(path: server.path)
        _ = nextLine(server, idle)   // VERSION
        server.broadcast(#"{"class":"TPV"}"#)
        server.service(timeoutMilliseconds: 10)
        #expect(idle.readLine(timeoutMilliseconds: 50) == nil)
    }

    @Test func answersBadRequestsWithErrorsAndGoesOn() throws {
        let server = try ReportServer(path: socketPath("errors"))
        defer { server.shutdown() }
        let client = try ReportClient(path: server.path)
        _ = nextLine(server, client)
        client.send("?NONSENSE;")
        #expect(nextLine(server, client)?.contains(#""class":"ERROR""#) == true)
        client.send(#"?WATCH={"enable":tru};"#)
        #expect(nextLine(server, client)?.contains(#""class":"ERROR""#) == true)
        client.send(String(repeating: "x", count: 5000))
        #expect(nextLine(server, client)?.contains("too long") == true)
        client.send("?VERSION;")
        #expect(nextLine(server, client)?.contains(#""class":"VERSION""#) == true)
    }

    @Test func dropsAClientThatStopsReading() throws {
        let server = try ReportServer(path: socketPath("slow"))
        defer { server.shutdown() }
        let slow = try ReportClient(path: server.path)
        slow.send(#"?WATCH={"enable":true,"json":true};"#)
        for _ in 0..<20 { server.service(timeoutMilliseconds: 5) }
        #expect(server.watchingClients == 1)
        let line = "{\"class\":\"IMU\",\"pad\":\"" + String(repeating: "x", count: 1000) + "\"}"
        for _ in 0..<2000 { server.broadcast(line) }   // 2 MB to a client that reads nothing
        #expect(server.droppedSlowClients == 1)
        #expect(server.clientCount == 0)
    }

    @Test func manyConnectionsLeakNoDescriptors() throws {
        let server = try ReportServer(path: socketPath("churn"))
        defer { server.shutdown() }
        let before = openDescriptors()
        for _ in 0..<500 {
            let client = try ReportClient(path: server.path)
            server.service(timeoutMilliseconds: 0)
            _ = client
        }
        for _ in 0..<20 { server.service(timeoutMilliseconds: 5) }
        #expect(server.clientCount == 0)
        // Other suites open files in parallel, so allow a few; a leak would show 500.
        #expect(openDescriptors() < before + 20, "\(openDescriptors()) open, \(before) before")
    }

    @Test func removesTheSocketFileOnShutdown() throws {
        let server = try ReportServer(path: socketPath("cleanup"))
        #expect(access(server.path, F_OK) == 0)
        server.shutdown()
        #expect(access(server.path, F_OK) != 0)
    }

    func openDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while readdir(directory) != nil { count += 1 }
        return count
    }
}
