import LodestoneOutputs
import Testing

/// Errors as a person with a phone meets them: a browser asking for a page gets a small page
/// in the app's style saying what happened and what to do; the API keeps its JSON and its
/// text for the programs that read it.
@Suite struct WebErrorPageTests {
    let rules = WebAppRulesTests()

    func response(_ answer: WebAnswer) -> HTTPResponse? {
        if case .response(let response) = answer { return response }
        return nil
    }

    func contentType(_ response: HTTPResponse?) -> String? {
        response?.headers.first { $0.name == "content-type" }?.value
    }

    func text(_ response: HTTPResponse?) -> String { String(decoding: response?.body ?? [], as: UTF8.self) }

    /// What a phone's browser sends when the address is opened from its camera.
    func pairing(code: String, accept: String?, language: String? = nil) -> HTTPRequest {
        var headers: [HTTPRequest.HeaderField] = [.init(name: "host", value: "127.0.0.1:8080")]
        if let accept { headers.append(.init(name: "accept", value: accept)) }
        if let language { headers.append(.init(name: "accept-language", value: language)) }
        var request = HTTPRequest(
            method: "GET", target: "/pair?code=\(code)", path: "/pair", query: [.init(name: "code", value: code)], headers: headers)
        request.remoteAddress = "10.0.0.9"
        return request
    }

    static let browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

    @Test func anExpiredCodeIsAPageThatSaysToPairAgainFromTheConnectPage() {
        let page = response(rules.app().answer(pairing(code: "expired", accept: Self.browserAccept)))
        #expect(page?.status == 403)
        #expect(contentType(page) == "text/html; charset=utf-8")
        let body = text(page)
        #expect(body.contains("<h1>This pairing address no longer works</h1>"))
        #expect(body.contains("expired"))
        #expect(body.contains("Connect page"))
        #expect(body.contains("lodestone web pair"))
        #expect(body.contains(#"<link rel="stylesheet" href="/style.css">"#), "in the app's style")
        #expect(body.contains(#"name="viewport""#), "it wraps on a phone")
        #expect(!body.contains("<script"), "nothing the Content-Security-Policy would refuse")
    }

    /// A phone set to German reads the page in German: the heading, what to do, the button.
    @Test func aGermanPhoneReadsTheExpiredCodeInGerman() {
        let page = response(rules.app().answer(pairing(code: "expired", accept: Self.browserAccept, language: "de-CH,de;q=0.9,en;q=0.8")))
        #expect(page?.status == 403)
        let body = text(page)
        #expect(body.contains(#"<html lang="de">"#))
        #expect(body.contains("<h1>Diese Kopplungsadresse gilt nicht mehr</h1>"))
        #expect(body.contains("«Verbinden»"), "it names the display's Connect page as the German display calls it")
        #expect(body.contains("App öffnen"))
        for english in ["pairing code", "expired", "Open the app", "again"] {
            #expect(!body.contains(english), "English left on the German page: \(english)")
        }
        let english = text(response(rules.app().answer(pairing(code: "expired", accept: Self.browserAccept, language: "en-GB,de;q=0.5"))))
        #expect(english.contains("<h1>This pairing address no longer works</h1>"), "the first language chooses")
    }

    @Test func aProgramAskingForTheSameAddressGetsText() {
        let plain = response(rules.app().answer(pairing(code: "expired", accept: nil)))
        #expect(plain?.status == 403)
        #expect(contentType(plain) == "text/plain; charset=utf-8")
        #expect(text(plain).contains("Connect page"))
    }

    @Test func theAPIKeepsItsJSONErrorsForABrowserToo() {
        let request = HTTPRequest(
            method: "GET", target: "/api/v1/state", path: "/api/v1/state",
            headers: [.init(name: "host", value: "127.0.0.1:8080"), .init(name: "accept", value: Self.browserAccept)])
        let unpaired = response(rules.app().answer(request))
        #expect(unpaired?.status == 401)
        #expect(contentType(unpaired) == "application/json")
        #expect(text(unpaired).contains(#""class":"ERROR""#))
    }

    @Test func everyErrorAPageAsksForIsAPageAndKeepsItsFields() {
        let throttled = HTTPResponse.text(429, "too many wrong pairing codes from this address: wait 60 s")
        var withRetry = throttled
        withRetry.add("retry-after", "60")
        let page = WebErrorPage.dressed(withRetry, for: pairing(code: "x", accept: Self.browserAccept))
        #expect(page.status == 429 && contentType(page) == "text/html; charset=utf-8")
        #expect(page.headers.contains { $0.name == "retry-after" && $0.value == "60" })
        #expect(text(page).contains("<p>Wait 60 s.</p>"), "what to do, after what happened")
        let hostile = WebErrorPage.dressed(.text(404, "no page /<script>x</script> on this device"), for: pairing(code: "x", accept: "text/html"))
        #expect(!text(hostile).contains("<script>"), "the server's words are escaped")
        let fine = HTTPResponse(status: 200, headers: [.init(name: "content-type", value: "text/plain")], body: [])
        #expect(WebErrorPage.dressed(fine, for: pairing(code: "x", accept: "text/html")) == fine, "only errors are dressed")
    }
}
