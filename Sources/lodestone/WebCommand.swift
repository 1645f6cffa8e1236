import LodestoneCore
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
import LodestoneSettings

/// `lodestone web pair|devices|forget ID`: the browsers that may use the device's web app, on
/// the running device through its socket.
enum WebCommand {
    static let help = """
        Usage: lodestone web pair|devices|forget ID [--socket PATH] [--json]

        The web app (run with --http ADDR, or "http": {"listen": ...} in the configuration) shows
        the device to the browsers paired with it; with "access": "open-read" anyone on the network
        may look, and actions still need a pairing.

          pair        print a one-time address, http://HOST:PORT/pair?code=CODE, good for ten
                      minutes: open it on the phone or tablet to pair that browser
          devices     list the paired browsers: id, what each said it was, paired, last seen
          forget ID   revoke a browser: it must pair again

        Examples:
          lodestone web pair
          lodestone web devices
          lodestone web forget 3fa2c1
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["socket"], flags: ["json"]), command: "web")
        let json = options.flags.contains("json")
        switch (options.positional.first, options.positional.count) {
        case ("pair"?, 1):
            return LockCommand.exchange(
                PlainRequest.webPair.text, socket: options.values["socket"], json: json,
                answer: [#""class":"PAIRING""#]
            ) { report in
                let url = report["url"]?.stringValue ?? "?"
                return "open this on the phone or tablet to pair it (good once, for ten minutes):\n  \(url)"
            }
        case ("devices"?, 1):
            return LockCommand.exchange(
                PlainRequest.webBrowsers.text, socket: options.values["socket"], json: json,
                answer: [#""class":"PAIRING""#], describe: list)
        case ("forget"?, 2):
            let id = options.positional[options.positional.startIndex + 1]
            guard !id.isEmpty, id.utf8.count <= 16 else { throw UsageError(message: "the browser's id is the short one 'lodestone web devices' lists") }
            return LockCommand.exchange(
                WebForgetRequest(id: id).text, socket: options.values["socket"], json: json,
                answer: [#""class":"PAIRING""#]
            ) { report in
                report["message"]?.stringValue ?? "forgotten"
            }
        default:
            throw UsageError(message: "give pair, devices or forget ID (see 'lodestone web --help')")
        }
    }

    static func list(_ report: JSONValue) -> String {
        let browsers = report["browsers"]?.arrayValue ?? []
        guard !browsers.isEmpty else { return "no browser is paired: 'lodestone web pair' prints an address to open" }
        var lines = ["ID      PAIRED            LAST SEEN         BROWSER"]
        for browser in browsers {
            let paired = String((browser["paired"]?.stringValue ?? "").prefix(16)).replacing("T", with: " ")
            let seen = String((browser["seen"]?.stringValue ?? "").prefix(16)).replacing("T", with: " ")
            let id = browser["id"]?.stringValue ?? "?"
            lines.append(id + String(repeating: " ", count: max(1, 8 - id.count)) + paired + "  " + seen + "  " + (browser["name"]?.stringValue ?? ""))
        }
        return lines.joined(separator: "\n")
    }
}
