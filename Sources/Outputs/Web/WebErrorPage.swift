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
    /// more) becomes the page when the request wants one; anything else is kept.
    public static func dressed(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard response.status >= 400, wantsPage(request),
            response.headers.contains(where: { $0.name == "content-type" && $0.value.hasPrefix("text/plain") })
        else { return response }
        var page = HTTPResponse(
            status: response.status,
            headers: [
                .init(name: "content-type", value: "text/html; charset=utf-8"),
                .init(name: "cache-control", value: "no-store")
            ],
            body: Array(
                html(status: response.status, heading: heading(response.status, path: request.path), message: String(decoding: response.body, as: UTF8.self))
                    .utf8))
        // What the text answer said beside its words (Retry-After, Allow) still holds.
        page.headers += response.headers.filter { $0.name != "content-type" && $0.name != "cache-control" }
        return page
    }

    /// The page: a heading for the kind of trouble, the server's own words (what happened,
    /// then after the colon what to do), and the way back into the app.
    static func html(status: Int, heading: String, message: String) -> String {
        let trimmed = message.hasSuffix("\n") ? String(message.dropLast()) : message
        let sentence = (trimmed.first.map { String($0).uppercased() } ?? "") + trimmed.dropFirst()
        var parts = sentence.split(separator: ": ", maxSplits: 1).map(String.init)
        if parts.count == 2, let first = parts[1].first { parts[1] = String(first).uppercased() + parts[1].dropFirst() }
        let paragraphs = parts.map { "<p>" + escaped($0) + (".!?".contains($0.last ?? ".") ? "" : ".") + "</p>" }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="en">
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
            <p><a class="button" href="/">Open the app</a></p>
            <p class="small">HTTP \(status) \(HTTPResponse.reason(status))</p>
            </main>
            </body>
            </html>

            """
    }

    /// The heading a person reads first: what kind of trouble, in words.
    static func heading(_ status: Int, path: String) -> String {
        if path == "/pair" {
            switch status {
            case 403: return "This pairing address no longer works"
            case 429: return "Too many wrong pairing codes"
            default: return "This pairing address is not whole"
            }
        }
        switch status {
        case 403: return "Not allowed"
        case 404: return "No such page"
        case 408: return "The request took too long"
        case 421: return "Not this device's name"
        case 429: return "Too many at once"
        case 503: return "The device is busy"
        case 400..<500: return "The device could not take this request"
        default: return "The device could not answer"
        }
    }

    static func escaped(_ text: String) -> String { MarkupText.escaped(text, apostrophe: "&#39;") }
}
