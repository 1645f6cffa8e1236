import Glibc
import Testing

/// The web app in a real browser (Debian's chromium, headless, driven by python3-selenium
/// through chromedriver; scripts/web-browser.py): paired with the printed address, every page
/// at a phone's 390x844 and a tablet's 1024x768 without a console error, the heading following
/// the walk's turns, and a track started and stopped from the page's buttons in
/// `lodestone track list`.
@Suite(.serialized) struct WebBrowserTests {
    @Test func everyPageOnAPhoneAndATablet() {
        guard access("/usr/bin/chromium", X_OK) == 0, access("/usr/bin/chromedriver", X_OK) == 0,
              TerminalDisplayTests.output("/usr/bin/python3 -c 'import selenium' && echo ok").contains("ok") else {
            print("skipped: the browser test needs chromium, chromium-driver and python3-selenium (scripts/install-deps --test)")
            return
        }
        let work = "/tmp/lodestone-browser-\(getpid())"
        _ = TerminalDisplayTests.output("rm -rf \(work)")
        defer { _ = TerminalDisplayTests.output("rm -rf \(work)") }
        let result = TerminalDisplayTests.output("timeout 300 /usr/bin/python3 \(MQTTBrokerTests.root)/scripts/web-browser.py "
            + "\(EndToEndTests.executable) \(work) \(EndToEndTests.freePort()) 2>&1; echo exit=$?")
        #expect(result.contains("exit=0") && result.contains("\"problems\": []"), "\(result.prefix(4000))")
    }
}
