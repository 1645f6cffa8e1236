import Glibc
import LodestoneCore
import LodestoneDevices
import Testing

/// Programs people already use, unchanged, against the running device: gpsd's own clients on
/// the TCP port, and gpsd itself, pynmea2 and our own parser reading the NMEA 0183 output.
@Suite(.serialized) struct RealClientTests {
    static func installed(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// `lodestone run` on the simulated board with both TCP outputs; stopped when `body` returns.
    static func withDevice(_ tag: String, _ body: (_ gpsdPort: Int, _ nmeaPort: Int) throws -> Void) throws {
        let base = 20_000 + Int(getpid() % 10_000) * 2 + (tag == "nmea" ? 20_000 : 0)
        let directory = "/tmp/lodestone-clients-\(tag)-\(getpid())"
        let end = EndToEndTests()
        let child = try end.spawn([
            "run", "--scenario", "walk", "--display", "none", "--socket", directory + ".sock", "--data-dir", directory,
            "--duration", "240", "--no-adaptive", "--listen", "127.0.0.1:\(base)", "--nmea-listen", "127.0.0.1:\(base + 1)"
        ])
        // The duration is a backstop only (the clients take a minute or two on a loaded machine,
        // and the device must outlive the last of them): the test stops it when done.
        defer {
            kill(child.pid, SIGTERM)
            _ = end.finish(child)
            _ = TerminalDisplayTests.output("rm -rf \(directory)")
        }
        // Ready once the socket answers. Fixed rates (no adaptive sampling): the GPS reports
        // every second even while the scenario stands still at its start.
        for _ in 0..<100
        where TerminalDisplayTests.output("/usr/bin/python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", \(base)), 1)' && echo up").contains(
            "up") == false
        {
            usleep(100_000)
        }
        try body(base, base + 1)
    }

    @Test func gpspipeCgpsAndThePythonGPSModuleSeeLiveData() throws {
        guard Self.installed("/usr/bin/gpspipe"), Self.installed("/usr/bin/python3") else {
            print("skipped: gpsd-clients or python3 is not installed (scripts/install-deps --test installs them)")
            return
        }
        try Self.withDevice("gpsd") { port, _ in
            // gpspipe -w: the JSON stream as gpsd's own client reads it.
            let piped = TerminalDisplayTests.output("timeout 20 /usr/bin/gpspipe -w -x 6 127.0.0.1:\(port)")
            #expect(piped.contains(#""class":"VERSION""#) && piped.contains(#""class":"TPV""#) && piped.contains(#""class":"ATT""#), "\(piped.prefix(2000))")
            #expect(piped.contains(#""mode":3"#) && piped.contains(#""heading":"#))
            // The Python gps module (python3-gps): its own parser makes objects of the reports.
            let python = TerminalDisplayTests.output(
                """
                timeout 30 /usr/bin/python3 -c '
                import gps
                session = gps.gps(host="127.0.0.1", port="\(port)", mode=gps.WATCH_ENABLE | gps.WATCH_JSON)
                seen = {}
                for _ in range(400):
                    report = session.next()
                    if report is None or "class" not in report: continue
                    seen.setdefault(report["class"], report)
                    if "TPV" in seen and "ATT" in seen and seen["TPV"].get("mode", 0) >= 2: break
                tpv, att = seen.get("TPV", {}), seen.get("ATT", {})
                print("TPV", tpv.get("mode"), round(tpv.get("lat", 0), 3), round(tpv.get("lon", 0), 3))
                print("ATT", "heading" in att, "pitch" in att, "roll" in att)
                '
                """)
            #expect(python.contains("TPV 3 47.3") && python.contains("ATT True True True"), "\(python)")
            // gpspipe -r asks ?WATCH={"nmea":true}: the receiver's sentences and the device's own
            // heading, attitude and pressure, as a gpsd with a compass attached passes them. The
            // heading comes once the walk's figure-8 has calibrated the compass: read until then.
            let raw = TerminalDisplayTests.output(
                "timeout 40 sh -c \"/usr/bin/gpspipe -r 127.0.0.1:\(port) | awk '{ print } /HCHDM/ { n++ } n >= 3 { exit }'\"")
            #expect(raw.contains("$HCHDM") && raw.contains("$IIXDR") && raw.contains("RMC"), "\(raw.prefix(1500))")
            // cgps, the curses client, in a tmux pane: it shows the position and the fix.
            if Self.installed("/usr/bin/cgps") && TerminalDisplayTests.hasTmux {
                let session = "lodestone-cgps-\(getpid())"
                _ = TerminalDisplayTests.output("tmux new-session -d -s \(session) -x 100 -y 30 '/usr/bin/cgps -s 127.0.0.1:\(port)'")
                defer { _ = TerminalDisplayTests.output("tmux kill-session -t \(session)") }
                let screen = TerminalDisplayTests.screen(session) { $0.contains("3D FIX") && $0.contains(" N") }
                #expect(screen.contains("3D FIX") && screen.contains("47.3") && screen.contains("8.5"), "\(screen)")
            } else {
                print("skipped cgps: cgps or tmux is not installed")
            }
        }
    }

    /// The NMEA output consumed as chart plotters do: gpsd reads it as a source and reports
    /// the heading; pynmea2 and our own parser accept every sentence; the heading sentences
    /// agree with each other.
    /// The `index`th comma-separated field of an NMEA sentence, or "" when it has fewer.
    static func text(_ sentence: String, _ index: Int) -> String {
        let fields = sentence.split(separator: ",", omittingEmptySubsequences: false)
        return index < fields.count ? String(fields[index]) : ""
    }

    /// The `index`th field as a number, NaN when absent or not a number.
    static func field(_ sentence: String, _ index: Int) -> Double {
        Double(text(sentence, index)) ?? .nan
    }

    @Test func theNMEAOutputIsReadByGpsdPynmea2AndOurParser() throws {
        try Self.withDevice("nmea") { _, nmeaPort in
            let capture = TerminalDisplayTests.output(
                """
                timeout 45 /usr/bin/python3 -c '
                import socket, time
                s = socket.create_connection(("127.0.0.1", \(nmeaPort)), 5)
                s.settimeout(1)
                data, start = b"", time.time()
                # At least 4 s, and until the heading is trusted (the figure-8 has calibrated the
                # compass: HDM is withheld before) and a few cycles with it have come.
                while time.time() - start < 4 or (data.count(b"HDM") < 5 and time.time() - start < 35):
                    try: data += s.recv(65536)
                    except socket.timeout: pass
                print(data.decode("ascii"), end="")
                '
                """)
            let sentences = capture.split(separator: "\r\n").map(String.init).filter { $0.hasPrefix("$") }
            var kinds: Set<String> = []
            var parser = NMEAParser()
            var fixes: [GPSFix] = []
            for sentence in sentences {
                let bytes = Array(sentence.utf8)
                let valid = bytes.withUnsafeBufferPointer { NMEAFields($0) != nil }
                #expect(valid, "checksum or form: \(sentence)")
                kinds.insert(
                    String(sentence.dropFirst(3).prefix(3)) + (sentence.contains("PTCH") ? "-attitude" : sentence.contains("Barometer") ? "-barometer" : ""))
                if let fix = bytes.withUnsafeBufferPointer({ parser.parse($0, received: 0) }) { fixes.append(fix) }
            }
            #expect(kinds.isSuperset(of: ["HDM", "HDG", "HDT", "ROT", "XDR-attitude", "XDR-barometer", "MDA", "RMC", "GGA"]), "\(kinds)")
            // RMC and GGA make whole fixes for our parser (no GSA is passed through, so the mode
            // comes from the GGA's quality).
            #expect(
                parser.rejected == 0 && !fixes.isEmpty && fixes.allSatisfy { abs($0.latitude - 47.37) < 0.05 },
                "our parser: \(parser.rejected) rejected, \(fixes.count) fixes")
            // HDT = HDM + the variation HDG gives.
            // Paired by content, not by position: the sentences of one heading cycle are written
            // together, but a capture may start or end in the middle of one.
            // One heading cycle: from an HDM to the next (HDT is absent until the declination is known).
            let cycles = sentences.indices.filter { sentences[$0].hasPrefix("$HCHDM") }.map { start -> ArraySlice<String> in
                let next = sentences[(start + 1)...].firstIndex { $0.hasPrefix("$HCHDM") } ?? sentences.endIndex
                return sentences[start..<next]
            }
            if let cycle = cycles.first(where: { c in c.contains { $0.hasPrefix("$HCHDG") } && c.contains { $0.hasPrefix("$HCHDT") } }),
                let index = cycle.indices.first,
                let hdg = cycle.first(where: { $0.hasPrefix("$HCHDG") }),
                let hdt = cycle.first(where: { $0.hasPrefix("$HCHDT") })
            {
                let m = Self.field(sentences[index], 1), t = Self.field(hdt, 1)
                let variation = Self.field(hdg, 4) * (Self.text(hdg, 5).hasPrefix("E") ? 1 : -1)
                #expect(abs(Angle.heading(m + variation) - t) < 0.15, "\(sentences[index]) \(hdg) \(hdt)")
            } else {
                Issue.record("no heading cycle with HDM, HDG and HDT in \(sentences.count) sentences")
            }
            if Self.installed("/usr/bin/python3"), TerminalDisplayTests.output("/usr/bin/python3 -c 'import pynmea2' && echo ok").contains("ok") {
                let path = "/tmp/lodestone-nmea-\(getpid()).txt"
                defer { unlink(path) }
                if let file = fopen(path, "w") { fputs(sentences.joined(separator: "\n"), file); fclose(file) }
                let checked = TerminalDisplayTests.output(
                    """
                    /usr/bin/python3 -c '
                    import pynmea2
                    lines = [l for l in open("\(path)").read().split("\\n") if l]
                    kinds = set()
                    for line in lines:
                        kinds.add(type(pynmea2.parse(line, check=True)).__name__)
                    print(len(lines), "parsed:", " ".join(sorted(kinds)))
                    '
                    """)
                #expect(checked.contains("parsed:") && checked.contains("HDT") && checked.contains("MDA") && checked.contains("XDR"), "\(checked)")
            } else {
                print("skipped pynmea2: python3-nmea2 is not installed")
            }
            // gpsd itself as the consumer: `gpsd -N tcp://...` then gpspipe shows the heading. gpsd
            // retrying its source can sit out SIGTERM: a left one would hold a later run's port.
            guard Self.installed("/usr/sbin/gpsd"), Self.installed("/usr/bin/gpspipe") else {
                print("skipped gpsd as consumer: gpsd is not installed")
                return
            }
            let gpsdPort = nmeaPort + 2
            let seen = TerminalDisplayTests.output(
                """
                /usr/sbin/gpsd -N -n -S \(gpsdPort) tcp://127.0.0.1:\(nmeaPort) >/dev/null 2>&1 & pid=$!
                sleep 2; timeout 15 /usr/bin/gpspipe -w -n 40 127.0.0.1:\(gpsdPort); kill $pid; sleep 1; kill -9 $pid 2>/dev/null
                """)
            #expect(seen.contains(#""class":"ATT""#) && seen.contains(#""heading":"#), "\(seen.prefix(1500))")
            #expect(seen.contains(#""class":"TPV""#) && seen.contains(#""lat":47.3"#))
        }
    }
}
