import LodestoneCore
/// An error as a person in a browser sees it: a request for a page (one whose `Accept` names
/// `text/html`, as a browser's address bar and links send) gets a small page in the app's
/// style that says what happened and what to do, instead of a bare line of text that does not
/// wrap on a phone. The API (`/api/...`) keeps its answers as they are: its callers are the
/// app's own scripts and other programs, which read JSON. The page has no script, so the
/// server's Content-Security-Policy holds as it is; its style sheet is one of the files an
/// unpaired browser may fetch.
public enum WebErrorPage {
    /// Whether `request` is a browser asking for a page (not the API, not a script's fetch).
    public static func wantsPage(_ request: HTTPRequest) -> Bool {
        !request.path.hasPrefix("/api/") && (request.header("accept") ?? "").lowercased().contains("text/html")
    }

    /// `response` as a browser should show it: an error in words (a text answer of 400 or
    /// more) becomes the page when the request wants one; anything else is kept. The page is
    /// in the browser's language (its `Accept-Language`) where the table of words has it.
    public static func dressed(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard response.status >= 400, wantsPage(request),
            response.headers.contains(where: { $0.name == "content-type" && $0.value.hasPrefix("text/plain") })
        else { return response }
        let language = browserLanguage(request.header("accept-language"))
        let trouble = trouble(response.status, path: request.path)
        // In English the server's own sentence says the most; in another language the table's
        // says the same in words the person reads.
        let wait = response.headers.first { $0.name == "retry-after" }?.value ?? "60"
        let message =
            language == .en
            ? String(decoding: response.body, as: UTF8.self) : Words.text("errorPage", trouble + "Advice", language, wait)
        var page = HTTPResponse(
            status: response.status,
            headers: [
                .init(name: "content-type", value: "text/html; charset=utf-8"),
                .init(name: "cache-control", value: "no-store")
            ],
            body: Array(
                html(status: response.status, heading: Words.text("errorPage", trouble, language), message: message, language: language).utf8))
        // What the text answer said beside its words (Retry-After, Allow) still holds.
        page.headers += response.headers.filter { $0.name != "content-type" && $0.name != "cache-control" }
        return page
    }

    /// German when the browser's first language is (de, de-CH, de-AT...), else English.
    static func browserLanguage(_ accepted: String?) -> Language {
        let first = (accepted ?? "").split(separator: ",").first.map { $0.trimmingSpaces().lowercased() } ?? ""
        return first.hasPrefix("de") ? .de : .en
    }

    /// The page: a heading for the kind of trouble, the server's own words (what happened,
    /// then after the colon what to do), and the way back into the app.
    static func html(status: Int, heading: String, message: String, language: Language = .en) -> String {
        let trimmed = message.hasSuffix("\n") ? String(message.dropLast()) : message
        let sentence = (trimmed.first.map { String($0).uppercased() } ?? "") + trimmed.dropFirst()
        var parts = sentence.split(separator: ": ", maxSplits: 1).map(String.init)
        if parts.count == 2, let first = parts[1].first { parts[1] = String(first).uppercased() + parts[1].dropFirst() }
        let paragraphs = parts.map { "<p>" + escaped($0) + (".!?".contains($0.last ?? ".") ? "" : ".") + "</p>" }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Lodestone: \(heading)</title>
            <link rel="stylesheet" href="/style.css">
            <link rel="icon" href="/icon.svg" type="image/svg+xml">
            </head>
            <body>
            <main class="pairing">
            <h1>\(heading)</h1>
            \(paragraphs)
            <p><a class="button" href="/">\(Words.text("errorPage", "openApp", language))</a></p>
            <p class="small">HTTP \(status) \(HTTPResponse.reason(status))</p>
            </main>
            </body>
            </html>

            """
    }

    /// The kind of trouble, the table's key for what a person reads first (`errorPage.<key>`).
    static func trouble(_ status: Int, path: String) -> String {
        if path == "/pair" {
            switch status {
            case 403: return "pairExpired"
            case 429: return "pairThrottled"
            default: return "pairIncomplete"
            }
        }
        switch status {
        case 403: return "forbidden"
        case 404: return "notFound"
        case 408: return "tooSlow"
        case 421: return "wrongName"
        case 429: return "tooMany"
        case 503: return "busy"
        case 400..<500: return "badRequest"
        default: return "failed"
        }
    }

    /// The heading in English, as tests and logs read it.
    static func heading(_ status: Int, path: String) -> String { Words.text("errorPage", trouble(status, path: path)) }

    static func escaped(_ text: String) -> String { MarkupText.escaped(text, apostrophe: "&#39;") }
}
