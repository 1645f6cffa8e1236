import Glibc
import Testing

/// The web app in a real browser (Debian's chromium, headless, driven by python3-selenium
/// through chromedriver; each check a script in scripts/ that runs the simulated device, pairs
/// with the printed address and prints one JSON line of findings and problems).
@Suite(.serialized) struct WebBrowserTests {
    /// Runs `scripts/SCRIPT LODESTONE WORK PORT` (after `environment`, such as `NAME=value `)
    /// in a work folder of its own and expects no problems; skipped, said, without a browser.
    static func check(_ script: String, timeout: Int, environment: String = "") {
        guard access("/usr/bin/chromium", X_OK) == 0, access("/usr/bin/chromedriver", X_OK) == 0,
            TerminalDisplayTests.output("/usr/bin/python3 -c 'import selenium' && echo ok").contains("ok")
        else {
            print("skipped: the browser test needs chromium, chromium-driver and python3-selenium (scripts/install-deps --test)")
            return
        }
        let work = "/tmp/lodestone-\(script.split(separator: ".").first ?? "browser")-\(getpid())"
        _ = TerminalDisplayTests.output("rm -rf \(work)")
        defer { _ = TerminalDisplayTests.output("rm -rf \(work)") }
        let result = TerminalDisplayTests.output(
            "\(environment)timeout \(timeout) /usr/bin/python3 \(MQTTBrokerTests.root)/scripts/\(script) "
                + "\(EndToEndTests.executable) \(work) \(EndToEndTests.freePort()) 2>&1; echo exit=$?")
        #expect(result.contains("exit=0") && result.contains("\"problems\": []"), "\(script): \(result.prefix(4000))")
    }

    /// scripts/web-browser.py: every page at a phone's 390x844 and a tablet's 1024x768 without a
    /// console error, the heading following the walk's turns, a track started and stopped from
    /// the page's buttons in `lodestone track list`, opened on the history page, its GPX
    /// downloaded from the page's link and valid against GPX 1.1, renamed and deleted through
    /// the confirmation; a reminder set beside a departure, kept on the card and cancelled.
    @Test func everyPageOnAPhoneAndATablet() {
        Self.check("web-browser.py", timeout: 400, environment: "GPX_XSD=\(MQTTBrokerTests.root)/../shared/vectors/gpx11.xsd ")
    }

    /// The device's zone on every page, the phone's offered once and taken live (scripts/web-zone.py).
    @Test func thePhoneIsOfferedItsZoneOnce() { Self.check("web-zone.py", timeout: 150) }

    /// The device's units on every page unless the browser chose its own from the header's
    /// switch, kept over a reload (scripts/web-units.py).
    @Test func theUnitsAreTheDevicesUnlessChosen() { Self.check("web-units.py", timeout: 150) }

    /// The track page is the recorder's (scripts/web-track.py): started from the page, its
    /// points and distance are the socket's ?TRACK; answer before and after a reload at 390 and
    /// 1024 px, only the buttons that apply are offered, and every page's header says REC.
    @Test func theTrackPageIsTheRecorders() { Self.check("web-track.py", timeout: 200) }

    /// Words, not codes (scripts/web-words.py): every page on the walk and the boat, in English
    /// and in German, without a code, a JSON fragment, NaN, null or an exponent in its text,
    /// and in German (the pairing page too) without English: the table's where it has German,
    /// and a list of frequent English words of an app.
    @Test func wordsNotCodesOnEveryPage() { Self.check("web-words.py", timeout: 900) }

    /// Waypoints and navigation from the phone (scripts/web-waypoints.py): save here and a typed
    /// place, the list nearest first as the API gives it, rename and delete through the dialog,
    /// one place's GPX; go to one and the compass page leads there with the socket's bearing and
    /// distance, its mark turning as the walker turns; stop ends it on the socket too.
    @Test func waypointsAreSavedAndNavigatedToFromThePhone() { Self.check("web-waypoints.py", timeout: 300) }

    /// The sky page's equinoxes and solstices, the Sun's path (three paths) and the eclipses; two
    /// snapshots taken on the snapshots page, compared with the changes marked, one deleted
    /// through the confirmation (scripts/web-skysnap.py).
    @Test func theSkysCalendarAndTheSnapshots() { Self.check("web-skysnap.py", timeout: 150) }

    /// Alerts and settings from the phone (scripts/web-alertset.py): a threshold set on the
    /// alerts page is the socket's ?ALERT (in feet too), one out of range refused on the page;
    /// the units and the display's theme set on the device page are in force and kept in the
    /// configuration file, an IMU rate out of range refused.
    @Test func alertsAndSettingsFromThePhone() { Self.check("web-alertset.py", timeout: 300) }

    /// After dusk the sky page counts down to the next day's civil dawn (scripts/web-dusk.py).
    @Test func afterDuskTheSkyCountsDownToTheDawn() { Self.check("web-dusk.py", timeout: 150) }

    /// The waves page (scripts/web-waves.py): a stop's timeline marks and sessions at 390 and
    /// 1024 px, a step to the next day and back, the date shown and the figures the API's.
    @Test func theWavesPageStepsThroughTheDays() { Self.check("web-waves.py", timeout: 240) }
}
