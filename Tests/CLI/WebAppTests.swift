import Glibc
import Testing

/// The web app from the outside (scripts/web-check.py, Python's http.client and raw sockets):
/// pairing, the protections on every answer, the Host and Origin checks, the app's files,
/// the state, the event stream, actions through the socket's request table, every limit with
/// its status, 64 connections and the 65th refused, and revoking a browser.
@Suite(.serialized) struct WebAppTests {
    @Test func aBrowserAndAHostileClient() {
        guard access("/usr/bin/python3", X_OK) == 0 else {
            print("skipped: the web app's check needs python3")
            return
        }
        let work = "/tmp/lodestone-web-\(getpid())"
        _ = TerminalDisplayTests.output("rm -rf \(work)")
        defer { _ = TerminalDisplayTests.output("rm -rf \(work)") }
        // The GPX download is validated against ../shared's GPX 1.1 schema when it is there.
        let xsd = MQTTBrokerTests.root + "/../shared/vectors/gpx11.xsd"
        let result = TerminalDisplayTests.output(
            "GPX_XSD=\(xsd) timeout 300 /usr/bin/python3 \(MQTTBrokerTests.root)/scripts/web-check.py server "
                + "\(EndToEndTests.executable) \(work) \(EndToEndTests.freePort()) 2>&1; echo exit=$?")
        #expect(result.contains("exit=0") && result.contains("\"problems\": []"), "\(result.prefix(6000))")
        // The app's weight as a browser fetches it (gzipped), from the findings.
        if let range = result.firstRange(of: #""appBytes": "#) {
            print("web app: \(result[range.upperBound...].prefix { $0.isNumber }) bytes compressed")
        }
    }
}
