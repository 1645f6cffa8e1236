import LodestoneOutputs
import LodestoneReports
import Testing

/// The web app's checks on each request, as a hostile page or client would try them: the
/// Origin must be exactly the device's page (scheme, name and port), an absolute target must
/// name the device, and pairing codes cannot be tried at speed.
@Suite struct WebAppRulesTests {
    /// Pairings held in memory: one browser, one code.
    final class Pairings: WebPairings {
        var code = "right"
        func browser(token: String, now: Double) -> PairedBrowser? {
            token == "good" ? PairedBrowser(id: "b1", name: "phone", paired: 0, seen: 0) : nil
        }
        func newCode(now: Double) -> String? { code }
        func redeem(code: String, name: String, now: Double) -> String? { code == self.code ? "good" : nil }
        func browsers() -> [PairedBrowser] { [] }
        func forget(id: String) -> Bool { false }
    }

    func app(now: @escaping () -> Double = { 1000 }) -> WebApp {
        let app = WebApp(mode: .paired, hosts: ["127.0.0.1", "helm.lan"], pairings: Pairings(), pairingAttempts: 10)
        app.port = 8080
        app.now = now
        app.requests.route("TRACK") { [.error("track handled")] }
        return app
    }

    func status(_ answer: WebAnswer) -> Int? {
        if case .response(let response) = answer { return response.status }
        return nil
    }

    func action(origin: String?, host: String = "127.0.0.1:8080") -> HTTPRequest {
        let token = WebApp.token(for: PairedBrowser(id: "b1", name: "phone", paired: 0, seen: 0))
        var headers: [HTTPRequest.HeaderField] = [.init(name: "host", value: host), .init(name: "cookie", value: "lodestone=good")]
        headers.append(.init(name: "x-lodestone-token", value: token))
        if let origin { headers.append(.init(name: "origin", value: origin)) }
        return HTTPRequest(method: "POST", target: "/api/v1/track", path: "/api/v1/track", headers: headers, body: Array("{}".utf8))
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", 422),  // the device's own page: the action is carried out (its ERROR is 422)
        ("http://127.0.0.1:9", 403),  // another port on the same machine is another site
        ("https://127.0.0.1:8080", 403),  // another scheme
        ("http://127.0.0.1", 403),  // port 80, not the device's
        ("http://helm.lan:8080", 403),  // another of the device's names than the one the page was opened by
        ("http://evil.example:8080", 403),
        ("null", 403),
        ("http://127.0.0.1:8080/path", 403),
        ("http://user@127.0.0.1:8080", 403)
    ])
    func anActionsOriginIsExactlyTheDevicesPage(origin: String, expected: Int) {
        #expect(status(app().answer(action(origin: origin))) == expected, "\(origin)")
    }

    @Test func anActionWithoutAnOriginNeedsTheTokenOnly() {
        #expect(status(app().answer(action(origin: nil))) == 422)
        #expect(status(app().answer(action(origin: "http://helm.lan:8080", host: "helm.lan:8080"))) == 422)
    }

    @Test func anAbsoluteTargetMustNameTheDevice() {
        let host: [HTTPRequest.HeaderField] = [.init(name: "host", value: "127.0.0.1:8080")]
        let elsewhere = HTTPRequest(method: "GET", target: "http://evil.example/style.css", path: "/style.css", headers: host)
        #expect(status(app().answer(elsewhere)) == 421)
        let here = HTTPRequest(method: "GET", target: "http://127.0.0.1:8080/style.css", path: "/style.css", headers: host)
        #expect(status(app().answer(here)) == 200)
    }

    /// A second's pause after each wrong code, a minute after ten in a row; another address is
    /// not held back, and a right code clears the record.
    @Test func pairingCodesCannotBeTriedAtSpeed() {
        var time = 1000.0
        let app = app(now: { time })
        func pair(_ code: String, from address: String) -> Int? {
            var request = HTTPRequest(
                method: "GET", target: "/pair?code=\(code)", path: "/pair", query: [.init(name: "code", value: code)],
                headers: [.init(name: "host", value: "127.0.0.1:8080")])
            request.remoteAddress = address
            return status(app.answer(request))
        }
        #expect(pair("wrong1", from: "10.0.0.9") == 403)
        #expect(pair("right", from: "10.0.0.9") == 429, "the right code within the second's pause still waits")
        #expect(pair("wrong1", from: "10.0.0.7") == 403, "another address has its own record")
        for attempt in 2...10 {
            time += 1.01
            #expect(pair("wrong\(attempt)", from: "10.0.0.9") == 403)
        }
        time += 1.01
        #expect(pair("right", from: "10.0.0.9") == 429, "ten wrong codes: a minute's pause")
        time += 60
        #expect(pair("right", from: "10.0.0.9") == 303)
        #expect(PairingThrottle().wait(for: "10.0.0.9", now: time) == 0)
    }
}
