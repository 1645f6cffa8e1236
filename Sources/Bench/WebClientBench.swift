import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports

/// What each connected browser costs the device: the web server in this process on a loopback
/// port, `clients` browsers each holding an event stream of ATT, TPV, ENV and SKY (the compass
/// page's subscription), and the device's reports published as a run does: ATT at 10 Hz, the
/// others at 1 Hz. Callgrind counts the server's instructions (`publish` and `service`) per
/// tick of 0.1 s; the cost of a browser is the difference between 20 browsers and none, per
/// browser and second (bench key `web.instructionsPerClientSecond`, budget 200,000).
public enum WebClientBench {
    /// The browsers' side: plain TCP connections that ask for the stream and read it.
    public final class Browsers {
        public private(set) var sockets: [Int32] = []
        public private(set) var received: [Int] = []

        /// Opens `count` event streams on `port`; nil when a connection fails.
        public init?(count: Int, port: Int, kinds: String = "ATT,TPV,ENV,SKY") {
            for _ in 0..<count {
                guard let fd = Loopback.connect(port: port) else { return nil }
                let request = Array("GET /api/v1/events?kinds=\(kinds) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
                guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else { Glibc.close(fd); return nil }
                sockets.append(fd)
                received.append(0)
            }
        }

        /// Reads what has arrived; returns the events (lines starting "id: ") seen per browser so far.
        @discardableResult
        public func drain() -> [Int] {
            var buffer = [UInt8](repeating: 0, count: 65536)
            for (index, fd) in sockets.enumerated() {
                while true {
                    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { break }
                    // "\nid: " starts every event after the head.
                    for i in 0..<max(0, count - 3)
                    where buffer[i] == UInt8(ascii: "i") && buffer[i + 1] == UInt8(ascii: "d") && buffer[i + 2] == UInt8(ascii: ":")
                        && (i == 0 || buffer[i - 1] == 10)
                    {
                        received[index] += 1
                    }
                }
            }
            return received
        }

        public func close() {
            for fd in sockets { Glibc.close(fd) }
            sockets.removeAll()
        }
        deinit { close() }
    }

    /// The reports of a walk's tenth of a second; `tick` counts them.
    public static func reports(tick: Int) -> [Report] {
        let time = 1_782_028_800 + Double(tick) / 10
        var attitude = AttitudeReport(device: "/dev/i2c-1", time: time)
        (attitude.roll, attitude.pitch, attitude.magneticHeading) = (1.5, -2.0, Double(tick % 360))
        (attitude.declination, attitude.trueHeading, attitude.headingAccuracy, attitude.rateOfTurn) = (2.9, Double(tick % 360) + 2.9, 3.5, 12)
        var list: [Report] = [.attitude(attitude)]
        if tick % 10 == 0 {
            list.append(ReportCostBench.position)
            list.append(ReportCostBench.satellites)
            list.append(
                .environment(
                    EnvironmentReport(
                        pressure: PressureSample(time: 0, pressure: 96_520, temperature: 14.5), barometricAltitude: 470,
                        qnh: 1013.25, weather: nil, device: "/dev/i2c-1", time: time)))
        }
        return list
    }

    /// `ticks` tenths of a second with `clients` browsers reading; returns the events the
    /// slowest browser received (0 when the server could not be set up).
    public static func kernel(ticks: Int, clients: Int) -> Int {
        guard let (server, port) = loopbackServer() else { return 0 }
        defer { server.shutdown() }
        server.answer = { _ in .events([.attitude, .position, .environment, .satellites]) }
        guard let browsers = Browsers(count: clients, port: port) else { return 0 }
        defer { browsers.close() }
        // Every browser connected and streaming before the count starts.
        for _ in 0..<200 where server.streamCount < clients {
            server.service()
            usleep(5_000)
        }
        for tick in 0..<ticks {
            for report in reports(tick: tick) { server.publish(report) }
            server.service()
            browsers.drain()
        }
        for _ in 0..<20 {
            server.service()
            browsers.drain()
        }
        return clients == 0 ? ticks : (browsers.drain().min() ?? 0)
    }

    /// The server's settings with every browser on this machine's one address: the per-address
    /// shares raised to the table's size (the bench measures a browser's cost, not the shares).
    public static var oneAddress: WebServer.Settings {
        var settings = WebServer.Settings()
        (settings.connectionsPerAddress, settings.streamsPerAddress) = (settings.maximumConnections, settings.maximumConnections)
        return settings
    }

    /// A server on a free loopback port: the one the kernel names free, or failing that (another
    /// program took it meanwhile) one tried after another (addresses take no port 0).
    public static func loopbackServer(settings: WebServer.Settings = oneAddress) -> (WebServer, Int)? {
        if let port = Loopback.freePort(), let server = try? WebServer(listen: "127.0.0.1:\(port)", settings: settings) { return (server, port) }
        let first = 20_000 + Int(getpid() % 20_000)
        for offset in 0..<200 {
            let port = 20_000 + (first - 20_000 + offset * 97) % 40_000
            if let server = try? WebServer(listen: "127.0.0.1:\(port)", settings: settings) { return (server, port) }
        }
        return nil
    }

    public struct Figures {
        /// Per browser and second, the difference between 20 browsers and none.
        public var instructionsPerClientSecond: Double
        /// The server's whole work per second with none and with 20.
        public var idlePerSecond: Double, twentyPerSecond: Double
    }

    public static func run(ticks: Int = 2000) -> (Figures?, String?) {
        func perTick(_ clients: Int) -> (Double?, String?) {
            let (counts, note) = Callgrind.count(
                kernel: "web", functions: ["*WebServer*publish*", "*WebServer*service*"], count: ticks,
                arguments: ["--clients", String(clients)])
            return (counts.map { $0.reduce(0, +) }, note)
        }
        let (idle, note) = perTick(0)
        let (twenty, _) = perTick(20)
        guard let idle, let twenty else { return (nil, note ?? "the web bench did not run") }
        return (Figures(instructionsPerClientSecond: (twenty - idle) / 20 * 10, idlePerSecond: idle * 10, twentyPerSecond: twenty * 10), nil)
    }
}
