import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneReports
import LodestoneServices
import LodestoneStorage

/// The web app on the running device: the HTTP server, its routes and the paired browsers,
/// and what `lodestone web pair|devices|forget` ask of them over the socket.
final class WebOutput {
    let server: WebServer
    let app: WebApp
    let pairings: WebPairingStore
    /// "HOST:PORT" as a phone on the same network reaches the device.
    let reachedAt: String

    init(
        listen address: String, access: WebAccessMode, names configured: [String] = [], dataDirectory: String,
        settings: WebServer.Settings = WebServer.Settings(), pairingAttempts: Int = 10
    ) throws(TCPListener.Failure) {
        server = try WebServer(listen: address, settings: settings)
        pairings = WebPairingStore(dataDirectory: dataDirectory)
        let listenHost = NetworkAddress.parse(address).map { $0.host } ?? ""
        let port = server.port ?? NetworkAddress.parse(address).map { Int($0.port) } ?? 0
        let names = Self.localNames().union(configured)
        app = WebApp(
            mode: access, hosts: names.union(listenHost.isEmpty ? [] : [WebApp.hostName(listenHost)]), pairings: pairings, pairingAttempts: pairingAttempts)
        app.port = port
        // The address a phone can open: the one listened on, unless that is every address;
        // then the first of the machine's own on a network, else its name.
        let wildcard = ["", "0.0.0.0", "::", "*"].contains(listenHost)
        let host = wildcard ? (Self.networkAddresses().first ?? machineHostName()?.lowercased() ?? "localhost") : listenHost
        reachedAt = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        app.reads = WebReads.routes(dataDirectory: dataDirectory)
        server.answer = { [unowned app] request in app.answer(request) }
        server.identify = { [unowned app] request in app.browserID(request) }
        app.state = { [unowned server] in server.stateJSON }
    }

    /// What the browsers were last told of the recording.
    private var toldTrack: (state: String, autoPaused: Bool, points: Int)?

    /// A TRACK to the event streams (and the state a page opens with) whenever the recording's
    /// state or its point count changed, whoever changed it (a button, the socket, a browser):
    /// every page's REC mark and the track page follow the recorder, not what one browser did.
    func follow(_ tracks: TrackService, now: Double) {
        let seen = (tracks.state.rawValue, tracks.autoPaused, tracks.recording?.points.count ?? 0)
        if let told = toldTrack, told == seen { return }
        toldTrack = seen
        server.publish(tracks.report(nil, at: now))
    }

    /// `?WEBPAIR;`: a one-time address for one browser.
    func pair(now: Double) -> Report {
        guard let code = pairings.newCode(now: now) else { return .error("the kernel's random source (/dev/urandom) cannot be read: no pairing code") }
        return .pairing(PairingReport(url: pairingURL(code), expires: now + WebPairing.codeSeconds))
    }

    /// The address a phone opens to pair with `code`.
    private func pairingURL(_ code: String) -> String { "http://\(reachedAt)/pair?code=\(code)" }

    /// The code the connect page shows: kept while it is open and has more than a minute
    /// left, a new one once a phone used it or it is about to expire.
    private var shown: (code: String, expires: Double)?

    func connectPanel(now: Double) -> ConnectPanel {
        if shown.map({ $0.expires - now < 60 || !pairings.isOpen(code: $0.code, now: now) }) ?? true {
            shown = pairings.newCode(now: now).map { ($0, now + WebPairing.codeSeconds) }
        }
        guard let shown else {
            return ConnectPanel(url: nil, minutesLeft: nil, problem: "the kernel's random source (/dev/urandom) cannot be read: no pairing code")
        }
        return ConnectPanel(url: pairingURL(shown.code), minutesLeft: Int((shown.expires - now) / 60))
    }

    func browsers() -> Report { .pairing(PairingReport(browsers: pairings.browsers())) }

    /// Revokes a browser, and closes what it has open at once: a page left open on a phone
    /// that was forgotten must not go on receiving positions.
    func forget(_ id: String) -> Report {
        guard pairings.forget(id: id) else { return .error("no paired browser \(id): 'lodestone web devices' lists them") }
        let closed = server.disconnect(browser: id)
        let streams = closed == 0 ? "" : " (\(closed) open connection\(closed == 1 ? "" : "s") closed)"
        return .pairing(PairingReport(browsers: pairings.browsers(), message: "browser \(id) forgotten: it must pair again" + streams))
    }

    /// The names and addresses this device answers to: localhost, its host name (and
    /// `NAME.local` for mDNS), and every address of its interfaces.
    static func localNames() -> Set<String> {
        var names: Set<String> = ["localhost", "127.0.0.1", "::1"]
        if let name = machineHostName()?.lowercased() { names.formUnion([name, name + ".local"]) }
        names.formUnion(networkAddresses(includingLoopback: true))
        return names
    }

    /// The machine's interface addresses as text, IPv4 first, loopback left out unless asked.
    static func networkAddresses(includingLoopback: Bool = false) -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var v4: [String] = [], v6: [String] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr else { continue }
            let loopback = current.pointee.ifa_flags & UInt32(IFF_LOOPBACK) != 0
            if loopback && !includingLoopback { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            var name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let percent = name.firstIndex(of: "%") { name = String(name[..<percent]) }  // an IPv6 zone
            if family == AF_INET { v4.append(name) } else { v6.append(name.lowercased()) }
        }
        return v4 + v6
    }
}
