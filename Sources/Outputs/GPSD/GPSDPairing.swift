import LodestoneEncoding
import LodestoneReports

extension GPSDReports {
    /// PAIRING (Lodestone): a one-time pairing address and when it expires, the paired
    /// browsers, or what revoking one did.
    static func pairing(_ report: PairingReport, into json: inout JSONBuffer) {
        json.beginReport("PAIRING")
        json.string("url", report.url)
        if let expires = report.expires { json.time("expires", expires) }
        if let browsers = report.browsers {
            json.beginArray("browsers")
            for browser in browsers {
                json.beginObject()
                json.string("id", browser.id)
                json.string("name", browser.name)
                json.time("paired", browser.paired)
                json.time("seen", browser.seen)
                json.endObject()
            }
            json.endArray()
        }
        json.string("message", report.message)
        json.endObject()
    }
}
