import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import Testing

/// The socket server with real clients on a real Unix socket.
@Suite(.serialized) struct ReportServerTests {
    func socketPath(_ name: String) -> String { "/tmp/lodestone-test-\(getpid())-\(name).sock" }

    /// A 3D fix with nothing else known, from `device`.
    static func position(_ device: String) -> Report {
        var fix = GPSFix()
        fix.mode = .threeD
        return .position(PositionReport(fix: fix, device: device))
    }

    static func attitude(_ device: String) -> Report { .attitude(AttitudeReport(state: NavigationState(), device: device, time: 0)) }

    static func inertial(_ device: String) -> Report {
        .inertial(
            InertialReport(
                imu: ImuSample(time: 0, acceleration: Vector3(0, 0, -9.8), rotationRate: Vector3(0, 0, 0), temperature: 20),
                magnetic: nil, device: device, time: 0))
    }

    /// A TCP connection to a loopback port (a blocking connect); nil when refused.
    static func connectTCP(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

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
        server.requests.route("DEVICES") { [.devices(DevicesReport(devices: [], activated: nil))] }
        let client = try ReportClient(path: server.path)
        let version = try #require(nextLine(server, client))
        #expect(version.hasPrefix(#"{"class":"VERSION""#))
        #expect(version.contains(#""proto_major":3"#))
        client.send(#"?WATCH={"enable":true,"json":true};"#)
        #expect(nextLine(server, client)?.hasPrefix(#"{"class":"DEVICES""#) == true)
        #expect(
            nextLine(server, client)
                == #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#)
        server.broadcast(Self.position("d"))
        #expect(nextLine(server, client) == #"{"class":"TPV","device":"d","mode":3}"#)
    }

    /// A request ends at its ';' as gpsd reads it: a client that writes no newline is answered
    /// at once, and a ';' inside the argument's strings does not end it.
    @Test func aRequestEndsAtItsSemicolon() throws {
        let server = try ReportServer(path: socketPath("semicolon"))
        defer { server.shutdown() }
        server.requests.route("DEVICES") { [.devices(DevicesReport(devices: [], activated: nil))] }
        let client = try ReportClient(path: server.path)
        _ = nextLine(server, client)  // VERSION
        client.send(raw: #"?WATCH={"enable":true,"json":true};"#)
        #expect(nextLine(server, client)?.hasPrefix(#"{"class":"DEVICES""#) == true)
        #expect(nextLine(server, client)?.hasPrefix(#"{"class":"WATCH","enable":true"#) == true)
        client.send(raw: #"?WATCH={"enable":true,"device":"a;b"};"#)
        #expect(nextLine(server, client)?.hasPrefix(#"{"class":"DEVICES""#) == true)
        #expect(nextLine(server, client)?.contains(#""device":"a;b""#) == true, "the ';' in the string did not cut the request")
        // Two requests in one write, then a newline alone: two answers, nothing for the newline.
        client.send(raw: "?VERSION;?VERSION;")
        #expect(nextLine(server, client)?.hasPrefix(#"{"class":"VERSION""#) == true)
        #expect(nextLine(server, client)?.hasPrefix(#"{"class":"VERSION""#) == true)
        client.send(raw: "\n")
        server.service(timeoutMilliseconds: 20)
        #expect(client.readLine(timeoutMilliseconds: 50) == nil)
    }

    @Test func onlyWatchingClientsGetTheStream() throws {
        let server = try ReportServer(path: socketPath("watching"))
        defer { server.shutdown() }
        let idle = try ReportClient(path: server.path)
        _ = nextLine(server, idle)  // VERSION
        server.broadcast(Self.position("d"))
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
        let padded = Report.event(EventReport(.storage(active: true, message: String(repeating: "x", count: 1000)), time: nil))
        for _ in 0..<2000 { server.broadcast(padded) }  // 2 MB to a client that reads nothing
        #expect(server.droppedSlowClients == 1)
        #expect(server.clientCount == 0)
    }

    /// 10,000 connect, watch, disconnect cycles: every descriptor is closed and the heap
    /// does not grow with them.
    @Test func tenThousandConnectionsLeakNoDescriptorsOrMemory() throws {
        let server = try ReportServer(path: socketPath("churn"))
        defer { server.shutdown() }
        func cycles(_ count: Int) throws {
            for index in 0..<count {
                let client = try ReportClient(path: server.path)
                if index % 2 == 0 { client.send(#"?WATCH={"enable":true,"rates":{"IMU":5}};"#) }
                server.service(timeoutMilliseconds: 0)
                server.broadcast(Self.inertial("d"))
                _ = client
            }
            for _ in 0..<50 where server.clientCount > 0 { server.service(timeoutMilliseconds: 5) }
        }
        try cycles(200)  // warm up: buffers and tables reach their working size
        let before = openDescriptors(), heapBefore = dataSegmentBytes()
        try cycles(10_000)
        #expect(server.clientCount == 0 && server.acceptedClients == 10_200)
        // Other suites open files in parallel, so allow a few; a leak would show 10,000.
        #expect(openDescriptors() < before + 20, "\(openDescriptors()) open, \(before) before")
        let growth = dataSegmentBytes() - heapBefore
        print("10,000 client cycles: data segment changed by \(growth) bytes, descriptors \(before) -> \(openDescriptors())")
        #expect(growth < 1 << 20, "heap grew \(growth) bytes")
    }

    /// ?WATCH rates: at most that many reports a second of a class, 0 for none; others as made.
    @Test func ratesLimitEachClassPerClient() throws {
        let server = try ReportServer(path: socketPath("rates"))
        defer { server.shutdown() }
        let limited = try ReportClient(path: server.path), full = try ReportClient(path: server.path)
        limited.send(#"?WATCH={"enable":true,"json":true,"rates":{"IMU":2,"att":0}};"#)
        full.send(#"?WATCH={"enable":true,"json":true};"#)
        var reply = ""
        for _ in 0..<100 where !reply.contains("WATCH") { reply = nextLine(server, limited) ?? "" }
        #expect(reply.contains(#""rates":{"ATT":0,"IMU":2}"#), "\(reply)")
        while nextLine(server, full).map({ !$0.contains("WATCH") }) ?? false {}
        // 100 IMU and 10 ATT reports over about a second.
        for index in 0..<100 {
            server.broadcast(Self.inertial("d"))
            if index % 10 == 0 { server.broadcast(Self.attitude("d")) }
            server.service(timeoutMilliseconds: 10)
        }
        func count(_ client: ReportClient) -> (imu: Int, att: Int) {
            var imu = 0, att = 0
            while let line = client.readLine(timeoutMilliseconds: 50) {
                if line.contains("IMU") { imu += 1 }
                if line.contains("ATT") { att += 1 }
            }
            return (imu, att)
        }
        let few = count(limited), all = count(full)
        #expect(all.imu == 100 && all.att == 10)
        #expect(few.imu >= 1 && few.imu <= 4 && few.att == 0, "\(few)")
    }

    /// ?WATCH device: only that device's reports; nmea: the receiver's sentences as sent.
    @Test func deviceFilterAndNMEAPassThrough() throws {
        let server = try ReportServer(path: socketPath("device"))
        defer { server.shutdown() }
        let client = try ReportClient(path: server.path)
        client.send(#"?WATCH={"enable":true,"json":true,"nmea":true,"device":"/dev/ttyS0"};"#)
        while nextLine(server, client).map({ !$0.contains("WATCH") }) ?? false {}
        server.broadcast(Self.position("/dev/ttyS0"))
        server.broadcast(Self.attitude("i2c-1@0x68"))
        server.broadcastSentence("$GPGGA,1*00", device: "/dev/ttyS0")
        server.broadcastSentence("$GPGGA,2*00", device: "/dev/ttyUSB1")
        #expect(nextLine(server, client) == #"{"class":"TPV","device":"/dev/ttyS0","mode":3}"#)
        #expect(nextLine(server, client) == "$GPGGA,1*00")
        server.service(timeoutMilliseconds: 10)
        #expect(client.readLine(timeoutMilliseconds: 50) == nil)
        client.send(#"?WATCH={"enable":true,"raw":7};"#)
        #expect(nextLine(server, client)?.contains("raw must be 0, 1 or 2") == true)
    }

    /// A request that changes who may use the device (pairing a browser) is answered on the
    /// Unix socket, whose permissions guard it, and refused on TCP with the local way named.
    @Test func pairingIsAnsweredOnlyOnTheLocalSocket() throws {
        let server = try ReportServer(path: socketPath("local-only"))
        defer { server.shutdown() }
        let port = try #require(Loopback.freePort())
        try server.listen(tcp: "127.0.0.1:\(port)")
        server.requests.route("WEBPAIR") { [.error("a code")] }
        server.requests.route("DEVICES") { [.devices(DevicesReport(devices: [], activated: nil))] }
        server.requests.restrictToLocalSocket("WEBPAIR")
        let fd = try #require(Self.connectTCP(port: port))
        defer { close(fd) }
        for _ in 0..<10 { server.service(timeoutMilliseconds: 5) }
        let request = Array("?WEBPAIR;?DEVICES;\n".utf8)
        #expect(request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) } == request.count)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<100 where !text.contains("DEVICES") {
            server.service(timeoutMilliseconds: 5)
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { text += String(decoding: buffer[0..<count], as: UTF8.self) }
        }
        #expect(text.contains("answered only on the device's own socket") && !text.contains("a code"), "\(text)")
        #expect(text.contains(#""class":"DEVICES""#), "the other requests are answered on TCP: \(text)")
        // The same request on the Unix socket is answered.
        let local = try ReportClient(path: server.path)
        _ = nextLine(server, local)
        local.send("?WEBPAIR;")
        #expect(nextLine(server, local)?.contains("a code") == true)
    }

    /// gpsd's port on TCP: the same protocol as the Unix socket.
    @Test func servesTheSameProtocolOnTCP() throws {
        let server = try ReportServer(path: socketPath("tcp"))
        defer { server.shutdown() }
        let port = try #require(Loopback.freePort())
        try server.listen(tcp: "127.0.0.1:\(port)")
        let fd = try #require(Self.connectTCP(port: port))
        defer { close(fd) }
        for _ in 0..<20 { server.service(timeoutMilliseconds: 5) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(count > 0 && String(decoding: buffer[0..<max(0, count)], as: UTF8.self).hasPrefix(#"{"class":"VERSION""#))
        #expect(server.clientCount == 1)
        #expect(throws: TCPListener.Failure.self) { try server.listen(tcp: "127.0.0.1:\(port)") }
        #expect(NetworkAddress.parse("2947")?.host == "127.0.0.1" && NetworkAddress.parse("[::1]:2947")?.host == "::1")
        #expect(NetworkAddress.parse("host:") == nil && NetworkAddress.parse("0.0.0.0:2947")?.port == 2947)
        #expect(!NetworkAddress.isLoopback("0.0.0.0") && NetworkAddress.isLoopback("127.0.0.1"))
    }

    /// A client flooding the server with junk gets ERRORs; another client is served throughout.
    @Test func aFloodingClientDelaysNoOne() throws {
        let server = try ReportServer(path: socketPath("flood"))
        defer { server.shutdown() }
        let flood = try ReportClient(path: server.path), quiet = try ReportClient(path: server.path)
        quiet.send(#"?WATCH={"enable":true};"#)
        while nextLine(server, quiet).map({ !$0.contains("WATCH") }) ?? false {}
        for round in 0..<200 {
            flood.send("?NOPE;?WATCH={bad};" + String(repeating: "z", count: 3000))
            server.broadcast(Self.position("n\(round)"))
            server.service(timeoutMilliseconds: 0)
        }
        var received = 0
        while let line = quiet.readLine(timeoutMilliseconds: 100) { if line.contains("TPV") { received += 1 }; server.service(timeoutMilliseconds: 0) }
        #expect(received == 200)
        #expect(server.clientCount >= 1)
    }

    @Test func removesTheSocketFileOnShutdown() throws {
        let server = try ReportServer(path: socketPath("cleanup"))
        #expect(access(server.path, F_OK) == 0)
        server.shutdown()
        #expect(access(server.path, F_OK) != 0)
    }

    /// The process's data segment (heap included), from /proc/self/statm, in bytes.
    func dataSegmentBytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, 256, file) != nil else { return 0 }
        let fields = String(cString: buffer).split(separator: " ")
        return fields.count > 5 ? (Int(fields[5]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    func openDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while readdir(directory) != nil { count += 1 }
        return count
    }
}
