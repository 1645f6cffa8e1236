import LodestoneCore
import LodestoneDomain
import LodestoneSim
import LodestoneBoard
import LodestoneReports

/// Every setting of `lodestone run`, in the order `run --help` and `config keys` list them.
extension Setting {
    nonisolated(unsafe) public static let all: [Setting] = board + outputs + display + sampling + mqttSettings + sky

    /// By key.
    nonisolated(unsafe) static let named: [String: Setting] = Dictionary(all.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

    /// Keys that hold an object of settings (`rates`, `mqtt`), not a setting themselves.
    static let groups: Set<String> = Set(
        all.flatMap { setting -> [String] in
            let parts = setting.key.split(separator: ".")
            return (1..<Swift.max(parts.count, 1)).map { parts.prefix($0).joined(separator: ".") }
        })

    /// The keys a file may write at one level (`prefix` "" for the top), for errors.
    static func keys(under prefix: String) -> [String] {
        let start = prefix.isEmpty ? "" : prefix + "."
        return Array(
            Set(
                all.compactMap { setting -> String? in
                    guard setting.key.hasPrefix(start) else { return nil }
                    return setting.key.dropFirst(start.count).split(separator: ".").first.map(String.init)
                })
        ).sorted()
    }

    nonisolated(unsafe) static let board: [Setting] = [
        Setting(
            "board", flag: "board", type: .path, reload: .restart,
            help:
                "the board: sim, the simulated board; a board's name (raspberry-pi-4: a file NAME.json in /etc/lodestone/boards, /usr/share/lodestone/boards or ./boards); or a board file's path ('lodestone probe' prints the lines for the chips it finds)",
            expected: "\"sim\", a board's name or the path of a board file",
            store: { c, v in
                c.board = v.stringValue ?? c.board; return nil
            },
            current: { .string($0.board) }),
        Setting(
            "scenario", flag: "scenario", type: .choice, choices: ScenarioName.allCases.map(\.rawValue), reload: .restart,
            help: "the simulated board's trip",
            store: { c, v in
                c.scenario = v.stringValue ?? c.scenario; return nil
            },
            current: { .string($0.scenario) }),
        optionalChoice(
            "use", flag: "use", reload: .restart,
            "where the compass is read: handheld, or fixed to a boat (calibrated from swings, judged within 15 degrees of heel); "
                + "null: a boat on the simulated boat, else handheld", \Configuration.use),
        number(
            "speed", flag: "speed", 0.1...1000, reload: .restart,
            "simulated world seconds per real second; the device lives on the trip's clock, so its results do not depend on it", \.speed),
        Setting(
            "seed", flag: "seed", type: .integer, range: 0...9_007_199_254_740_991, reload: .restart,
            help: "seed of the simulated sensor noise",
            store: { c, v in
                guard let whole = v.numberValue.flatMap({ UInt64(whole: $0) }) else { return .notExpected }
                c.seed = whole
                return nil
            },
            current: { .number(Double($0.seed)) }),
        Setting(
            "simStart", flag: "sim-start", type: .string, nullable: true, reload: .restart,
            help: "when the simulated trip starts, UTC (ISO 8601, e.g. 2026-12-21T21:30:00Z): the sky, the Sun and a satellite's passes follow it; "
                + "or now, now+S, now-S: the system's time at the start plus S seconds (the simulated receiver's clock that far off, for trying chrony); "
                + "null: 2026-06-21T08:00:00Z",
            expected: "a UTC time such as 2026-06-21T21:30:00Z (1970 to 2199), now, now+S or now-S (S up to 86400 seconds), or null",
            store: { c, v in
                guard let text = v.stringValue else { (c.simulatedStart, c.simulatedStartFromNow) = (nil, nil); return nil }
                if text.hasPrefix("now") {
                    let rest = text.dropFirst(3)
                    guard rest.isEmpty || rest.first == "+" || rest.first == "-",
                        let seconds = rest.isEmpty ? 0 : Double(rest.dropFirst()).map({ rest.first == "-" ? -$0 : $0 }),
                        seconds.isFinite, abs(seconds) <= 86_400
                    else { return .notExpected }
                    (c.simulatedStart, c.simulatedStartFromNow) = (nil, seconds)
                    return nil
                }
                guard let time = CivilTime.parseISO8601(text), time >= 0, time < 7_258_118_400 else { return .notExpected }
                (c.simulatedStart, c.simulatedStartFromNow) = (time, nil)
                return nil
            },
            current: { c in
                if let ahead = c.simulatedStartFromNow {
                    return .string(ahead == 0 ? "now" : (ahead > 0 ? "now+" : "now-") + DecimalText.compact(abs(ahead), 3))
                }
                return c.simulatedStart.map { .string(CivilTime(unixSeconds: $0).iso8601) } ?? .null
            }),
        Setting(
            // null (none) is how the row reports no faults, so it must store it back.
            "faults", flag: "fault", type: .string, nullable: true, reload: .restart,
            help: "faults for the simulated trip, KIND@SECONDS[+DURATION] separated by commas (e.g. magnet@120,gps-outage@300); KIND is one of "
                + SimulatedFault.Kind.allCases.map(\.rawValue).joined(separator: ", "),
            expected: "KIND@SECONDS[+DURATION] separated by commas, KIND one of " + SimulatedFault.Kind.allCases.map(\.rawValue).joined(separator: ", "),
            store: { c, v in
                var faults: [SimulatedFault] = []
                for text in (v.stringValue ?? "").split(separator: ",") {
                    guard let fault = SimulatedFault(String(text)) else { return .notExpected }
                    faults.append(fault)
                }
                c.faults = faults
                return nil
            },
            current: { c in c.faults.isEmpty ? .null : .string(c.faults.map(\.description).joined(separator: ",")) }),
        Setting(
            "duration", flag: "duration", type: .number, unit: "s", range: 0...1e9, nullable: true, reload: .restart,
            help: "stop after this many real seconds; null: run until SIGINT or SIGTERM",
            store: { c, v in
                c.duration = v.numberValue; return nil
            },
            current: { $0.duration.map { .number($0) } ?? .null }),
        Setting(
            "tripDuration", flag: "trip-duration", type: .number, unit: "s", range: 1...1e9, nullable: true, reload: .restart,
            help: "stop after this many seconds of the device's own time (on the simulated board, of the trip's, whatever the speed); null: run on",
            store: { c, v in
                c.tripDuration = v.numberValue; return nil
            },
            current: { $0.tripDuration.map { .number($0) } ?? .null }),
        text(
            "record.path", flag: "record", type: .path, reload: .restart,
            "record every answer the chips, the receiver and the clock give the sampling side into this file, for "
                + "'lodestone replay' and 'lodestone verify --recording' (the board, the configuration and the version "
                + "go with it; no MQTT credentials); null: no recording", \.recordPath),
        number(
            "record.maxMB", flag: "record-max-mb", unit: "MB", 1...100_000, reload: .restart,
            "the most a recording keeps on the card: past half of it the file moves to FILE.1 (replacing the one before) "
                + "and FILE begins again, each replayable on its own", \.recordMaxMB),
        text(
            "record.reports", flag: "reports", type: .path, reload: .restart,
            "every report the run publishes, one gpsd JSON line each in the order published, into this file; beside "
                + "--record it is what the device said in the field, and 'lodestone verify --recording FILE --reports THIS' "
                + "checks that the replay says exactly the same; null: not kept", \.reportsPath),
        text(
            "dataDir", flag: "data-dir", type: .path, reload: .restart,
            "where calibration, tracks and logs live; null: ~/.local/share/lodestone, /var/lib/lodestone as root. One run owns it "
                + "at a time, and what it keeps is private to its owner (folders 0700, files 0600)", \.dataDir),
        number("loopRateHz", flag: "loop-rate", unit: "Hz", 10...2000, reload: .restart, "the scheduler's loop rate", \.loopRateHz),
        rate("imu", flag: "imu-rate", reload: .live, "IMU samples per second", \.imuRateHz),
        rate("magnetometer", flag: "mag-rate", reload: .live, "magnetometer samples per second", \.magnetometerRateHz),
        rate("barometer", flag: "baro-rate", reload: .live, "barometer samples per second", \.barometerRateHz),
        rate("gps", flag: nil, reload: .restart, "how often the serial port is drained of GPS bytes", \.gpsPollRateHz),
        rate("processing", flag: nil, reload: .live, "how often heading, attitude and altitude are computed and published", \.processingRateHz),
        number("simulatedGPSRateHz", flag: "gps-rate", unit: "Hz", 1...10, reload: .restart, "the simulated receiver's fixes per second", \.simulatedGPSRateHz),
        number("qnh", flag: "qnh", unit: "hPa", 850...1100, reload: .live, "sea-level pressure for the barometric altitude", \.qnh),
        optionalWhole(
            "realTime.priority", flag: "priority", 1...99, reload: .restart,
            "SCHED_FIFO priority of the sampling thread; null (none): an ordinary thread", \.realTimePriority),
        optionalWhole("realTime.cpu", flag: "cpu", 0...1023, reload: .restart, "pin the sampling thread to this CPU; null: any", \.cpu),
        boolean(
            "realTime.lockMemory", flag: "no-mlock", sets: false, reload: .restart,
            "lock the process's memory, so no page fault stalls the loop (--no-mlock: do not)", \.lockMemory),
        boolean(
            "realTime.keepCPUAwake", reload: .restart,
            "hold the CPU's wake-up latency at 0: more punctual sampling, more idle power (for mains power)", \.keepCPUAwake),
        boolean("stats", flag: "stats", sets: true, reload: .restart, "print the scheduler's per-task table when stopping", \.stats)
    ]

    nonisolated(unsafe) static let outputs: [Setting] = [
        text(
            "socket", flag: "socket", type: .path, reload: .restart,
            "the Unix socket for clients (gpsd JSON); null: $XDG_RUNTIME_DIR/lodestone.sock, /run/lodestone/lodestone.sock as root", \.socket),
        address(
            "listen", flag: "listen", "also serve gpsd JSON on TCP, e.g. 127.0.0.1:2947 (a bare port means 127.0.0.1; other hosts must be written out)",
            \.listen),
        address(
            "nmeaListen", flag: "nmea-listen", "serve NMEA 0183 (HDM, HDG, HDT, ROT, XDR, MDA, RMC, GGA) on TCP, e.g. 127.0.0.1:10110, for chart plotters",
            \.nmeaListen),
        text(
            "nmeaUDP", flag: "nmea-udp", type: .address, reload: .live,
            expected: "a UDP address, \"192.168.1.255:10110\" (a host alone means port 10110)",
            "also send NMEA 0183 as UDP datagrams, e.g. 192.168.1.255:10110 (broadcast to the boat's network; a host alone means port 10110)",
            accepts: { NetworkAddress.destination($0, defaultPort: NetworkAddress.nmeaPort) != nil }, \.nmeaUDP),
        address(
            "signalKListen", flag: "signalk-listen",
            "serve Signal K deltas on TCP, one per line, for signalk-server's \"Signal K over TCP\" connection, e.g. 127.0.0.1:8375", \.signalKListen),
        text(
            "signalKUDP", flag: "signalk-udp", type: .address, reload: .live, expected: "a UDP address with its port, \"192.168.1.20:8375\"",
            "send Signal K deltas as UDP datagrams, one each, for its \"Signal K over UDP\" connection, e.g. 192.168.1.20:8375",
            accepts: { NetworkAddress.destination($0, defaultPort: nil) != nil }, \.signalKUDP),
        text(
            "chrony.socket", flag: "chrony-socket", type: .path, reload: .restart,
            "send the GPS time to chrony, as samples for its SOCK refclock at this socket (chrony's 'refclock SOCK PATH'): the system clock set from GPS on a board without a real-time clock; null: off",
            \.chronySocket),
        text(
            "http.listen", flag: "http", type: .address, reload: .restart, expected: "an address to listen on, \"0.0.0.0:8080\" (a bare port means 127.0.0.1)",
            "serve the web app to phones and tablets over HTTP, e.g. 0.0.0.0:8080 for the boat's network; null: off",
            accepts: { NetworkAddress.parse($0) != nil }, \.httpListen),
        choice(
            "http.access", reload: .restart,
            "who may use the web app: paired (every page needs a browser paired with 'lodestone web pair') or open-read (anyone on the network may look; actions need a pairing)",
            \.httpAccess),
        text(
            "http.names", flag: "http-names", reload: .restart, expected: "host names separated by commas, \"helm.lan,boat.local\"",
            "more names the web app answers to (a name the boat's router gives the device); its host name, NAME.local and its addresses always work",
            accepts: { WebHostNames.parse($0) != nil }, \.httpNames),
        whole(
            "http.connectionsPerAddress", 1...64, reload: .restart,
            "connections one address may hold open to the web app at once (a browser opens up to six); beyond them it is told 429",
            \.httpConnectionsPerAddress),
        whole(
            "http.streamsPerAddress", 1...64, reload: .restart,
            "live event streams (open pages) one address may hold at once; beyond them it is told 429",
            \.httpStreamsPerAddress),
        whole(
            "http.pairingAttempts", 1...1000, reload: .restart,
            "wrong pairing codes one address may try in a row before it waits a minute (it waits a second after each)",
            \.httpPairingAttempts),
        Setting(
            "signalKRates", type: .object, reload: .live,
            help: "Signal K sends per second by path over the defaults, 0 to 50 (0 leaves the path out), e.g. {\"navigation.attitude\": 2}",
            store: { c, v in
                guard case .object(let members) = v else { return .notExpected }
                var rates: [String: Double] = [:]
                for (name, rate) in members {
                    guard SignalKPath.named(name) != nil else {
                        return .at(key: name, "not a path Lodestone sends; the paths: " + SignalKPath.allCases.map(\.text).joined(separator: ", "))
                    }
                    guard let n = rate.numberValue, (0...50).contains(n) else {
                        return .at(key: name, "must be a number from 0 to 50, found \(describe(rate))")
                    }
                    rates[name] = n
                }
                c.signalKRates = rates
                return nil
            },
            current: { c in .object(c.signalKRates.sorted { $0.key < $1.key }.map { ($0.key, .number($0.value)) }) })
    ]

    nonisolated(unsafe) static let display: [Setting] = [
        text(
            "display", flag: "display", type: .string, reload: .restart,
            expected: "\"terminal\", \"none\" or \"fb:/dev/fbN\"",
            "terminal, none, fb:/dev/fbN, or fb:FILE (a file framebuffer with a FILE.ppm screenshot); null: the board file's, else terminal when stdout is one",
            accepts: Configuration.isValidDisplay, \.display),
        choice("page", flag: "page", reload: .live, "the display's first page", \Configuration.page),
        optionalChoice(
            "units", flag: "units", reload: .live,
            "the display's units (nautical: knots and nautical miles); null: nautical for a boat, else metric", \Configuration.unitsChoice),
        choice("theme", flag: "theme", reload: .live, "the display's colours; night is red on black", \Configuration.theme),
        optionalChoice(
            "language", flag: "language", reload: .live,
            "the words of the display, the terminal and the web app: en (English) or de (German); null: English, and each browser its own",
            \Configuration.languageChoice),
        choice(
            "north", flag: "north", reload: .live, "the display's main heading: from true north (the map's) or magnetic (a hand compass's); the m key switches",
            \Configuration.north),
        choice("flipAction", reload: .live, "what turning the device face down and back does", \Configuration.flipAction),
        sound(.button, "the buzzer's pattern for a button press"),
        sound(.longPress, "for a long press"),
        sound(.alert, "for a weather or sensor alert"),
        sound(.offCourse, "for leaving the locked bearing or the track"),
        sound(.level, "when the level is reached"),
        sound(.snapshot, "for a snapshot taken"),
        sound(.lock, "for a bearing locked"),
        sound(.cardinal, "for the cardinal click"),
        sound(.satellitePass, "before a satellite's pass"),
        sound(.departure, "for a departure reminder"),
        boolean("sounds.mute", reload: .live, "no sound at all", \.sounds.mute),
        Setting(
            "sounds.quietHours", type: .string, nullable: true, reload: .live,
            help: "a window of local time with no sound but alerts, \"22:00-07:00\"; null: none",
            expected: "a window of local time, \"22:00-07:00\", or null",
            store: { c, v in
                if v == .null { c.sounds.quietHours = nil; return nil }
                guard let window = v.stringValue.flatMap({ SoundSettings.window($0) }) else { return .notExpected }
                c.sounds.quietHours = window
                return nil
            },
            current: { c in c.sounds.quietHours.map { .string(SoundSettings.windowText($0)) } ?? .null }),
        boolean("sounds.cardinalClick", reload: .live, "click each time the heading passes north, east, south or west", \.sounds.cardinalClick)
    ]

    nonisolated(unsafe) static let sampling: [Setting] = [
        boolean(
            "sampling.adaptive", flag: "no-adaptive", sets: false, reload: .restart,
            "rates follow the motion, the power supply and the load (--no-adaptive: keep the configured rates)", \.adaptiveSampling),
        boolean("sampling.lowPower", flag: "low-power", sets: true, reload: .restart, "run the low-power profile whatever the battery says", \.lowPower),
        number("sampling.lowBatteryPercent", unit: "%", 5...80, reload: .restart, "below this charge the low-power profile runs", \.lowBatteryPercent),
        Setting(
            "sampling.powerSupply", type: .path, reload: .restart, help: "where the battery's figures are read",
            expected: "an absolute directory path",
            store: { c, v in
                guard let path = v.stringValue, path.hasPrefix("/") else { return .notExpected }
                c.powerSupplyDirectory = path
                return nil
            },
            current: { .string($0.powerSupplyDirectory) }),
        Setting(
            "sampling.rates", type: .object, reload: .restart,
            help: "the rate table's rows by motion state, over the defaults, e.g. {\"still\": {\"imu\": 25, \"gpsInterval\": 5}}",
            store: { c, v in Configuration.applySamplingRates(v, to: &c.samplingTable) },
            current: { c in c.samplingTable.ratesJSON }),
        Setting(
            "sampling.lowPowerCeiling", type: .object, reload: .restart,
            help: "the highest rates of the low-power profile, e.g. {\"imu\": 50}",
            store: { c, v in Configuration.applyRates(v, to: &c.samplingTable.lowPowerCeiling, key: Optional<String>.none) },
            current: { c in c.samplingTable.lowPowerCeiling.json }),
        Setting(
            "trackInterval", type: .string, reload: .restart,
            help: "seconds between track points, 1 to 30, or \"adaptive\" (by speed and turning)",
            expected: "1 to 30 (seconds) or \"adaptive\"",
            store: { c, v in
                guard let mode = TrackSampler.Mode(v.stringValue ?? v.numberValue.map { String($0) } ?? "") else { return .notExpected }
                c.trackInterval = mode
                return nil
            },
            current: { c in
                if case .every(let seconds) = c.trackInterval { return .number(seconds) }
                return .string(c.trackInterval.description)
            }),
        number(
            "tracks.autoPauseSpeed", unit: "m/s", 0...5, reload: .restart,
            "a recording pauses itself below this speed (0.3 m/s: a person standing; a slow paddler may want 0.1)", \.autoPauseSpeed),
        number(
            "tracks.autoPauseSeconds", unit: "s", 1...600, reload: .restart,
            "how long below the auto-pause speed before the recording pauses itself", \.autoPauseSeconds),
        number(
            "tracks.importMaxMB", unit: "MB", 1...100_000, reload: .live,
            "the largest GPX or JSON file 'track import' takes (read from the configuration file, or --config FILE)", \.trackImportMaxMB)
    ]

    nonisolated(unsafe) static let sky: [Setting] = [
        place("observer.latitude", -90...90, "the sky's place without a GPS fix: latitude (both are needed)", \.latitude),
        place("observer.longitude", -180...180, "and longitude", \.longitude),
        text(
            "timeZone", reload: .live, expected: "an IANA zone such as Europe/Zurich or an offset such as +02:00",
            "the one zone of every time the device shows (display, web app, terminal, the CLI's text; JSON keeps ISO 8601 with the offset), "
                + "an IANA zone (Europe/Zurich) or an offset (+02:00); null: the system's, or on the simulated board the scenario's place's",
            accepts: { (try? TimeZoneRules($0)) != nil }, \.timeZone),
        choice("clock", reload: .live, "how times of day are written on every face: 24h (14:32) or 12h (2:32 pm)", \.clock),
        text("satellites.tle", type: .path, reload: .restart, "a TLE file's path: the satellites whose passes are announced", \.satelliteTLE),
        text("satellites.satellite", reload: .restart, "the satellite announced, by name or catalogue number; null: the ISS", \.satelliteName),
        number("satellites.alertMinutes", unit: "min", 1...120, reload: .restart, "how long before a pass it is announced", \.satelliteAlertMinutes),
        number(
            "transit.nearestWithinKm", unit: "km", 0.1...1000, reload: .restart,
            "the nearest stop is the closest with a departure in the next 24 hours within this distance; beyond it there is no stop with service nearby",
            \.nearestStopWithinKm)
    ]

    /// A TCP address to listen on.
    static func address(_ key: String, flag: String, _ help: String, _ path: WritableKeyPath<Configuration, String?>) -> Setting {
        text(
            key, flag: flag, type: .address, reload: .live, expected: "a TCP address, \"127.0.0.1:2947\" (a bare port means 127.0.0.1)",
            help, accepts: { NetworkAddress.parse($0) != nil }, path)
    }

    /// One coordinate of the sky's fallback place.
    static func place(
        _ key: String, _ range: ClosedRange<Double>, _ help: String,
        _ path: WritableKeyPath<Configuration.Place, Double>
    ) -> Setting {
        Setting(
            key, type: .number, unit: "°", range: range, nullable: true, reload: .restart, help: help,
            store: { c, v in
                guard let n = v.numberValue else { c.observer = nil; return nil }
                var place = c.observer ?? Configuration.Place(latitude: .nan, longitude: .nan)
                place[keyPath: path] = n
                c.observer = place
                return nil
            },
            current: { c in c.observer.map { $0[keyPath: path] }.flatMap { $0.isFinite ? .number($0) : nil } ?? .null })
    }
}
