import Glibc
import Testing

/// The web app in a real browser (Debian's chromium, headless, driven by python3-selenium
/// through chromedriver; scripts/web-browser.py): paired with the printed address, every page
/// at a phone's 390x844 and a tablet's 1024x768 without a console error, the heading following
/// the walk's turns, a track started and stopped from the page's buttons in
/// `lodestone track list`, opened on the history page, its GPX downloaded from the page's link
/// and valid against GPX 1.1, renamed and deleted through the confirmation; a reminder set
/// beside a departure, kept on the card and cancelled.
@Suite(.serialized) struct WebBrowserTests {
    @Test func everyPageOnAPhoneAndATablet() {
        guard access("/usr/bin/chromium", X_OK) == 0, access("/usr/bin/chromedriver", X_OK) == 0,
            TerminalDisplayTests.output("/usr/bin/python3 -c 'import selenium' && echo ok").contains("ok")
        else {
            print("skipped: the browser test needs chromium, chromium-driver and python3-selenium (scripts/install-deps --test)")
            return
        }
        let work = "/tmp/lodestone-browser-\(getpid())"
        _ = TerminalDisplayTests.output("rm -rf \(work)")
        defer { _ = TerminalDisplayTests.output("rm -rf \(work)") }
        let xsd = MQTTBrokerTests.root + "/../shared/vectors/gpx11.xsd"
        let result = TerminalDisplayTests.output(
            "GPX_XSD=\(xsd) timeout 400 /usr/bin/python3 \(MQTTBrokerTests.root)/scripts/web-browser.py "
                + "\(EndToEndTests.executable) \(work) \(EndToEndTests.freePort()) 2>&1; echo exit=$?")
        #expect(result.contains("exit=0") && result.contains("\"problems\": []"), "\(result.prefix(4000))")
    }

    /// The track page is the recorder's (scripts/web-track.py): started from the page, its
    /// points and distance are the socket's ?TRACK; answer before and after a reload at 390 and
    /// 1024 px, only the buttons that apply are offered, and every page's header says REC.
    @Test func theTrackPageIsTheRecorders() {
        guard access("/usr/bin/chromium", X_OK) == 0, access("/usr/bin/chromedriver", X_OK) == 0,
            TerminalDisplayTests.output("/usr/bin/python3 -c 'import selenium' && echo ok").contains("ok")
        else {
            print("skipped: the browser test needs chromium, chromium-driver and python3-selenium (scripts/install-deps --test)")
            return
        }
        let work = "/tmp/lodestone-web-track-\(getpid())"
        _ = TerminalDisplayTests.output("rm -rf \(work)")
        defer { _ = TerminalDisplayTests.output("rm -rf \(work)") }
        let result = TerminalDisplayTests.output(
            "timeout 200 /usr/bin/python3 \(MQTTBrokerTests.root)/scripts/web-track.py "
                + "\(EndToEndTests.executable) \(work) \(EndToEndTests.freePort()) 2>&1; echo exit=$?")
        #expect(result.contains("exit=0") && result.contains("\"problems\": []"), "\(result.prefix(4000))")
    }

    /// After dusk the sky page counts down to the next day's civil dawn (scripts/web-dusk.py).
    @Test func afterDuskTheSkyCountsDownToTheDawn() {
        guard access("/usr/bin/chromium", X_OK) == 0, access("/usr/bin/chromedriver", X_OK) == 0,
            TerminalDisplayTests.output("/usr/bin/python3 -c 'import selenium' && echo ok").contains("ok")
        else {
            print("skipped: the browser test needs chromium, chromium-driver and python3-selenium (scripts/install-deps --test)")
            return
        }
        let work = "/tmp/lodestone-dusk-\(getpid())"
        _ = TerminalDisplayTests.output("rm -rf \(work)")
        defer { _ = TerminalDisplayTests.output("rm -rf \(work)") }
        let result = TerminalDisplayTests.output(
            "timeout 150 /usr/bin/python3 \(MQTTBrokerTests.root)/scripts/web-dusk.py "
                + "\(EndToEndTests.executable) \(work) \(EndToEndTests.freePort()) 2>&1; echo exit=$?")
        #expect(result.contains("exit=0") && result.contains("\"problems\": []"), "\(result.prefix(4000))")
    }
}
