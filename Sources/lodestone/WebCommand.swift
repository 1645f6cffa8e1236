import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
import LodestoneSettings

/// `lodestone web pair|devices|forget ID`: the browsers that may use the device's web app, on
/// the running device through its socket.
enum WebCommand {
    static let help = """
        Usage: lodestone web pair [--qr|--no-qr] | devices | forget ID  [--socket PATH] [--json]

        The web app (run with --http ADDR, or "http": {"listen": ...} in the configuration) shows
        the device to the browsers paired with it; with "access": "open-read" anyone on the network
        may look, and actions still need a pairing.

          pair        print a one-time address, http://HOST:PORT/pair?code=CODE, good for ten
                      minutes: open it on the phone or tablet to pair that browser. On a
                      terminal it also draws the address as a QR code for the phone's camera
                      (black on white whatever the terminal's colours); --qr draws it even when
                      the output goes to a file or a pipe, --no-qr never. Without a shell, the
                      display's Connect page (the last page) shows the same kind of code.
          devices     list the paired browsers: id, what each said it was, paired, last seen
          forget ID   revoke a browser: it must pair again

        Examples:
          lodestone web pair
          lodestone web devices
          lodestone web forget 3fa2c1
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["socket"], flags: ["json", "qr", "no-qr"]), command: "web")
        let json = options.flags.contains("json")
        // A code for the camera is what a person at a terminal wants; a script reading the
        // output wants the address alone, unless it asks.
        let drawsCode = !json && !options.flags.contains("no-qr") && (options.flags.contains("qr") || isatty(1) == 1)
        switch (options.positional.first, options.positional.count) {
        case ("pair"?, 1):
            return LockCommand.exchange(
                PlainRequest.webPair.text, socket: options.values["socket"], json: json,
                answer: [#""class":"PAIRING""#]
            ) { report in
                let url = report["url"]?.stringValue ?? "?"
                let words = "open this on the phone or tablet to pair it (good once, for ten minutes):\n  \(url)"
                guard drawsCode, let code = QRCode(Array(url.utf8)) else { return words }
                return terminalCode(code) + "\n" + words
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

    /// The code drawn black on white with its four modules of quiet zone: the colours are
    /// set, not taken from the terminal, as a phone's camera may not read a code drawn light
    /// on dark.
    static func terminalCode(_ code: QRCode) -> String {
        code.halfBlockLines(quietZone: 4, blocksAreDark: true).map { "\u{1B}[30;107m" + $0 + "\u{1B}[0m" }.joined(separator: "\n")
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
