import LodestoneCore
import LodestoneEncoding
import LodestoneReports

/// The web app's routes: the app's files, pairing, and the API (`/api/v1/...`) over the same
/// request table and decoders as the socket. Every request is checked first: its `Host` must
/// name this device (no DNS rebinding), a page or a read needs a paired browser unless access
/// is `open-read`, and an action needs a paired browser, the device's own `Origin` and the
/// session's token in `X-Lodestone-Token`.
package final class WebApp {
    package let mode: WebAccessMode
    /// The host names and addresses this device answers to (without ports, in lower case).
    package let hosts: Set<String>
    package let pairings: any WebPairings
    /// The socket's requests (the POST bodies are their request objects).
    package var requests = RequestTable()
    /// GET routes the wiring adds (stored tracks, waypoints...): a path, with the paths under it, to its answer.
    package var reads: [String: (HTTPRequest) -> HTTPResponse] = [:]
    /// POST routes the wiring adds (a stored track's name, notes and deletion; favourite stops):
    /// checked as every action is.
    package var writes: [String: (HTTPRequest, JSONValue?) -> HTTPResponse] = [:]
    /// The newest report of each kind (the server keeps them).
    package var state: () -> String = { "{}" }
    /// The device's time (UTC seconds), for pairing codes and the browsers' last visits.
    package var now: () -> Double = { OutputClock.unixTime() }
    private var compressed: [String: (gzip: [UInt8], etag: String)] = [:]
    /// The port the server listens on: an action's `Origin` must name it (nil: any, for a
    /// server whose port is not known).
    package var port: Int?
    /// Wrong pairing codes, per address.
    package var throttle: PairingThrottle

    package init(mode: WebAccessMode, hosts: Set<String>, pairings: any WebPairings, pairingAttempts: Int = 10) {
        (self.mode, self.hosts, self.pairings) = (mode, Set(hosts.map { $0.lowercased() }), pairings)
        throttle = PairingThrottle(attempts: pairingAttempts)
    }

    /// The paired browser whose cookie came with `request` (nil: none).
    package func browserID(_ request: HTTPRequest) -> String? {
        request.cookie(WebPairing.cookie).flatMap { pairings.browser(token: $0, now: now())?.id }
    }

    /// The answer to `request`; an error a browser asked for as a page comes as one (`WebErrorPage`).
    package func answer(_ request: HTTPRequest) -> WebAnswer {
        let answer = route(request)
        guard case .response(let response) = answer else { return answer }
        return .response(WebErrorPage.dressed(response, for: request))
    }

    private func route(_ request: HTTPRequest) -> WebAnswer {
        guard let host = request.header("host").map(Self.hostName), hosts.contains(host) else {
            return .response(.text(421, "this device does not answer to that name: open it by its own name or address"))
        }
        // An absolute target ("GET http://name/..."): its name is the one the request is for.
        if let named = Self.absoluteTargetHost(request.target), !hosts.contains(named) {
            return .response(.text(421, "the request names another host (\(named)): this device answers only for its own names"))
        }
        let browser = request.cookie(WebPairing.cookie).flatMap { pairings.browser(token: $0, now: now()) }
        if request.path == "/pair" { return .response(pair(request)) }
        switch request.method {
        case "GET":
            if request.path.hasPrefix("/api/") {
                guard browser != nil || mode == .openRead || request.path == "/api/v1/session" else { return .response(Self.unpaired) }
                return read(request, browser: browser)
            }
            guard browser != nil || mode == .openRead || Self.openFiles.contains(request.path) else {
                return .response(page(path: "/pairing.html", request: request))
            }
            return .response(page(path: request.path == "/" ? "/index.html" : request.path, request: request))
        case "POST":
            guard let browser else { return .response(Self.unpaired) }
            if let origin = request.header("origin"), !isOwnOrigin(origin, host: request.header("host") ?? "") {
                return .response(.text(403, "an action from another site's page is refused (its Origin must be this page's own scheme, name and port)"))
            }
            guard request.header("x-lodestone-token") == Self.token(for: browser) else {
                return .response(.text(403, "an action needs the page's token (X-Lodestone-Token): reload the page"))
            }
            return .response(act(request))
        default:
            var refused = HTTPResponse.text(405, "\(request.method) is not served here: GET or POST")
            refused.add("allow", "GET, HEAD, POST")
            return .response(refused)
        }
    }

    /// The files a browser may fetch before it is paired: the pairing page and what it needs,
    /// its words in the browser's language among them (`lang.js` with the table and the store
    /// it reads; code and words only, nothing of the device's data).
    static let openFiles: Set<String> = [
        "/pairing.html", "/style.css", "/icon.svg", "/manifest.webmanifest", "/lang.js", "/words.js", "/store.js"
    ]

    static let unpaired = HTTPResponse.json(
        #"{"class":"ERROR","message":"this browser is not paired: scan the QR code on the display's Connect page (the last page), or run 'lodestone web pair' on the device and open the address it prints"}"#,
        status: 401)

    /// `Host: name:port` or `[::1]:port` as the bare name, in lower case.
    package static func hostName(_ value: String) -> String {
        let lower = value.lowercased()
        if lower.hasPrefix("["), let close = lower.firstIndex(of: "]") { return String(lower[lower.index(after: lower.startIndex)..<close]) }
        return String(lower.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Whether `origin` is exactly the page the request came from: the scheme `http`, the name
    /// the `Host` field gives (one of this device's), and the port the server listens on (80
    /// when the origin names none). Anything else, a path, `null` or another port on the same
    /// machine, is another site.
    func isOwnOrigin(_ origin: String, host: String) -> Bool {
        let lower = origin.lowercased()
        guard lower.hasPrefix("http://") else { return false }
        let authority = String(lower.dropFirst(7))
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@"),
            let (name, originPort) = Self.splitAuthority(authority), let (hostName, hostPort) = Self.splitAuthority(host.lowercased()),
            name == hostName, hosts.contains(name), originPort == hostPort
        else { return false }
        return port.map { $0 == originPort } ?? true
    }

    /// "name:port", "[::1]:port" or "name" as the bare name and the port (80 when none is
    /// given); nil for a port that is not one.
    static func splitAuthority(_ authority: String) -> (String, Int)? {
        let name = hostName(authority)
        var rest = Substring(authority)
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            rest = rest[rest.index(after: close)...]
        } else if let colon = rest.firstIndex(of: ":") {
            rest = rest[colon...]
        } else {
            rest = ""
        }
        guard !rest.isEmpty else { return (name, 80) }
        guard rest.hasPrefix(":"), rest.count >= 2, rest.count <= 6, rest.dropFirst().allSatisfy(\.isASCII),
            let port = Int(rest.dropFirst()), (1...65_535).contains(port)
        else { return nil }
        return (name, port)
    }

    /// The name an absolute-form target ("http://name:port/path") gives; nil for a path.
    static func absoluteTargetHost(_ target: String) -> String? {
        guard target.lowercased().hasPrefix("http://") else { return nil }
        let rest = target.dropFirst(7)
        return hostName(String(rest.prefix { $0 != "/" && $0 != "?" }))
    }

    /// The token a paired browser's page sends with each action: a digest of its identity the
    /// page reads from `/api/v1/session` (a page on another site cannot, as the cookie is
    /// `SameSite=Strict` and the answer same-origin).
    package static func token(for browser: PairedBrowser) -> String {
        var digest = SHA256()
        digest.update(Array(("lodestone-action:" + browser.id + ":" + String(browser.paired)).utf8))
        return SHA256.hexText(Array(digest.finish().prefix(16)))
    }

    /// The two ways to a new pairing address, for a person holding the phone.
    static let howToPair =
        "pair again from the device: scan the QR code on its display's Connect page (the last page), or run 'lodestone web pair' on it and open the address it prints"

    /// `/pair?code=CODE`: a valid code sets the cookie and opens the app.
    private func pair(_ request: HTTPRequest) -> HTTPResponse {
        guard let code = request.parameter("code"), !code.isEmpty, code.utf8.count <= 64 else {
            return .text(400, "the pairing address needs its code: " + Self.howToPair)
        }
        let time = now()
        let wait = throttle.wait(for: request.remoteAddress, now: time)
        guard wait <= 0 else {
            var refused = HTTPResponse.text(
                429, "too many wrong pairing codes from this address: wait \(Int(wait.rounded(.up))) s, then open the address 'lodestone web pair' printed")
            refused.add("retry-after", String(Int(wait.rounded(.up))))
            return refused
        }
        let name = String((request.header("user-agent") ?? "a browser").prefix(120))
        guard let token = pairings.redeem(code: code, name: name, now: time) else {
            throttle.failed(request.remoteAddress, now: time)
            return .text(403, "this pairing code has expired or was used already (each is good once, for ten minutes): " + Self.howToPair)
        }
        throttle.succeeded(request.remoteAddress)
        var response = HTTPResponse(status: 303, headers: [.init(name: "location", value: "/"), .init(name: "cache-control", value: "no-store")])
        response.add("set-cookie", "\(WebPairing.cookie)=\(token); Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict")
        return response
    }

    /// The app's files, compressed once, with a validator.
    private func page(path: String, request: HTTPRequest) -> HTTPResponse {
        guard let file = WebAssets.files.first(where: { $0.path == path }) else {
            return .text(404, "no page \(path) on this device")
        }
        let packed =
            compressed[path]
            ?? {
                let bytes = Array(file.text.utf8)
                var digest = SHA256()
                digest.update(bytes)
                let entry = (gzip: Deflate.gzip(bytes), etag: "\"" + SHA256.hexText(Array(digest.finish().prefix(12))) + "\"")
                compressed[path] = entry
                return entry
            }()
        var response = HTTPResponse(
            status: 200,
            headers: [
                .init(name: "content-type", value: file.type),
                .init(name: "etag", value: packed.etag),
                .init(name: "cache-control", value: "no-cache"),
                .init(name: "vary", value: "accept-encoding")
            ])
        if request.header("if-none-match") == packed.etag {
            response.status = 304
            return response
        }
        if (request.header("accept-encoding") ?? "").lowercased().contains("gzip") {
            response.add("content-encoding", "gzip")
            response.body = packed.gzip
        } else {
            response.body = Array(file.text.utf8)
        }
        return response
    }

    /// GET `/api/v1/...`.
    private func read(_ request: HTTPRequest, browser: PairedBrowser?) -> WebAnswer {
        switch request.path {
        case "/api/v1/session":
            var w = JSONObjectWriter()
            w.bool("paired", browser != nil)
            w.string("access", mode.rawValue)
            if let browser {
                w.string("browser", browser.id)
                w.string("token", Self.token(for: browser))
            }
            return .response(.json(w.finished))
        case "/api/v1/state":
            return .response(.json(state()))
        case "/api/v1/events":
            let names = (request.parameter("kinds") ?? "").split(separator: ",").map(String.init)
            let kinds = names.isEmpty ? Set(ReportKind.allCases) : Set(names.compactMap(ReportKind.init(rawValue:)))
            guard kinds.count == max(names.count, kinds.count) || names.isEmpty else {
                return .response(.text(400, "kinds are report classes: TPV, ATT, ENV, SKY, MOTION, EVENT..."))
            }
            return .events(kinds, browser: browser?.id)
        case "/api/v1/health":
            return .response(reply(requests.answer("STATUS", nil) ?? []))
        default:
            // A read answers its path and the paths under it ("/api/v1/tracks/ID").
            if let route = reads.first(where: { request.path == $0.key || request.path.hasPrefix($0.key + "/") })?.value {
                return .response(route(request))
            }
            return .response(.text(404, "no API \(request.path) on this device"))
        }
    }

    /// The actions: `POST /api/v1/NAME` with the socket's request object as the body.
    static let actions = [
        "track": "TRACK", "waypoint": "WAYPOINT", "lock": "LOCK", "unlock": "UNLOCK", "baro": "BARO", "level": "LEVEL",
        "calibrate": "CALIBRATE", "snapshot": "SNAPSHOT", "log": "LOG", "alert": "ALERT", "departures": "DEPARTURES",
        "reminder": "REMINDER"
    ]

    private func act(_ request: HTTPRequest) -> HTTPResponse {
        let write = writes.first { request.path == $0.key || request.path.hasPrefix($0.key + "/") }?.value
        let name = request.path.hasPrefix("/api/v1/") ? Self.actions[String(request.path.dropFirst(8))] : nil
        guard write != nil || name != nil else {
            return .text(404, "no action \(request.path): POST to /api/v1/ with one of " + Self.actions.keys.sorted().joined(separator: ", "))
        }
        var argument: JSONValue?
        if !request.body.isEmpty {
            guard let text = String(validating: request.body, as: UTF8.self), let parsed = try? JSONValue.parse(text) else {
                return .json(GPSDReports.line(.error("the body is not a JSON object: send the socket's request object")), status: 400)
            }
            argument = parsed
        }
        if let write { return write(request, argument) }
        let action = name ?? ""
        guard !requests.isLocalOnly(action) else { return .text(403, "\(action) is answered only on the device's own socket") }
        return reply(requests.answer(action, argument) ?? [.error("\(action) is not served by this device")])
    }

    /// The reports as the socket writes them: one object, or an array of several; an ERROR is 422.
    private func reply(_ reports: [Report]) -> HTTPResponse {
        let lines = reports.map(GPSDReports.line)
        let failed = reports.contains { if case .error = $0 { return true } else { return false } }
        return .json(lines.count == 1 ? lines.joined() : "[" + lines.joined(separator: ",") + "]", status: failed ? 422 : 200)
    }
}
