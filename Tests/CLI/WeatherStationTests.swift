import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
@testable import LodestoneRuntime
import LodestoneSim
import Testing
@testable import LodestoneDevices
@testable import LodestoneEncoding
@testable import LodestoneSampling
@testable import LodestoneServices
@testable import LodestoneSettings
@testable import LodestoneStorage
@testable import LodestoneVerify
@testable import LodestoneBoard

/// The weather station: its board-file fields, what the output thread makes of its readers,
/// and the simulated board's wind and water read through the real drivers and folders, judged
/// against the world's truth.
@Suite struct WeatherStationTests {
    @Test func theBoardFileNamesTheProbesTheAnemometerAndTheVane() throws {
        let text = """
            {"name": "jetty", "temperatureProbes": {"water": "28-0316a2795cff", "air": "28-0416b3a4c5ff"},
             "oneWire": "/tmp/w1", "wind": {"anemometer": {"line": 17, "kmhPerHz": 2.4, "debounceMs": 3},
             "vane": {"chip": "ads1115", "address": "0x49", "channel": 2, "northOffset": 90, "directions": [[0, 33000], [180, 3900]]}}}
            """
        let board = try BoardDescription.parse(text, file: "jetty.json")
        #expect(board.station.probes.map(\.name).sorted() == ["air", "water"])
        #expect(board.station.oneWireDirectory == "/tmp/w1")
        #expect(board.station.anemometer == StationWiring.Anemometer(line: 17, kmhPerHz: 2.4, debounceMilliseconds: 3))
        #expect(board.station.vane?.address == 0x49 && board.station.vane?.channel == 2 && board.station.vane?.northOffset == 90)
        #expect(board.station.vane?.directions?.count == 2)
        // boards/sim.json is the built-in simulated board, its station included.
        if let sim = try? BoardDescription.load(file: "boards/sim.json") {
            #expect(sim.station == BoardDescription.simulatedBoard.station)
        } else {
            Issue.record("boards/sim.json does not load")
        }
        let bad: [(String, String)] = [
            (#"{"temperatureProbes": {"water": "10-0316a2795cff"}}"#, "temperatureProbes.water"),
            (#"{"temperatureProbes": {"water": "28-0316a2795cff", "air": "28-0316a2795cff"}}"#, "already another probe"),
            (#"{"wind": {"anemometer": {"kmhPerHz": 2.4}}}"#, "wind.anemometer"),
            (#"{"wind": {"anemometer": {"line": 17, "kmhPerHz": -1}}}"#, "wind.anemometer.kmhPerHz"),
            (#"{"wind": {"vane": {"channel": 5}}}"#, "wind.vane.channel"),
            (#"{"wind": {"vane": {"address": "0x50"}}}"#, "answers only at"),
            (#"{"wind": {"vane": {"directions": [[400, 1000], [0, 33000]]}}}"#, "entry 1"),
            (#"{"wind": {"gauge": 1}}"#, "wind.gauge")
        ]
        for (json, said) in bad {
            do {
                _ = try BoardDescription.parse(json, file: "b.json")
                Issue.record("accepted \(json)")
            } catch {
                #expect(error.description.contains(said) && error.description.contains("b.json"), "\(error.description)")
            }
        }
    }

    /// The output thread's view: ten minutes of wind statistics from the one-second samples, a
    /// probe that fails once keeping its last good temperature, and one silent for too long
    /// named with its problem instead of an old figure.
    @Test func oneFailedReadKeepsTheTemperatureAndAStaleOneIsNamed() {
        let clock = ManualClock()
        var wiring = StationWiring()
        wiring.probes = [.init(name: "water", id: "28-0316a2795cff")]
        let station = WeatherStation(clock: clock, wind: nil, probes: wiring.probes, probeInterval: 10, readProbe: { _ in (nil, nil) })
        let service = StationService(station: station, wiring: wiring, clock: clock)
        for second in 0..<5 {
            station.record(WindSample(time: clock.now(), speed: Double(second % 2 == 0 ? 4 : 6), direction: second < 3 ? 350 : 10))
            clock.advance(by: 1_000_000_000)
        }
        station.record(ProbeReading(name: "water", celsius: 14.25, problem: nil, time: clock.now()))
        service.tick(at: clock.now())
        let wind = service.figures?.wind
        #expect(wind?.speed == 4.8 && wind?.seconds == 5)
        #expect(wind?.gust.map { abs($0 - 16.0 / 3) < 1e-9 } == true, "the highest 3 s mean: 6, 4, 6")
        #expect(wind?.direction.map { abs(Angle.signed($0)) < 5 } == true, "350 and 10 average near north, not south")
        #expect(service.figures?.waterTemperature == 14.25)
        clock.advance(by: 10_000_000_000)
        station.record(ProbeReading(name: "water", celsius: nil, problem: "CRC check failed", time: clock.now()))
        service.tick(at: clock.now())
        #expect(service.figures?.waterTemperature == 14.25, "one bad read on a long cable does not lose the water")
        #expect(service.devices().map(\.health) == [.ok])
        clock.advance(by: 40_000_000_000)
        service.tick(at: clock.now())
        #expect(service.figures?.waterTemperature == nil)
        #expect(service.figures?.problems == ["probe water: CRC check failed"])
        let devices = service.devices()
        #expect(
            devices.map(\.path) == ["w1:28-0316a2795cff"] && devices.first?.health == .degraded
                && devices.first?.error == "probe water: CRC check failed", "\(devices)")
    }

    /// The figures at a time are the readings stamped up to it, however late the output side
    /// took them: a take that finds seconds of wind beyond the slot it serves keeps them for
    /// the slots that reach them, so a late thread and a prompt one publish the same figures.
    @Test func readingsApplyAtTheirOwnTimesHoweverLateTheyAreTaken() {
        let clock = ManualClock()
        var wiring = StationWiring()
        wiring.probes = [.init(name: "water", id: "28-0316a2795cff")]
        func station() -> WeatherStation {
            WeatherStation(clock: clock, wind: nil, probes: wiring.probes, probeInterval: 10, readProbe: { _ in (nil, nil) })
        }
        let promptStation = station(), lateStation = station()
        let prompt = StationService(station: promptStation, wiring: wiring, clock: clock)
        let late = StationService(station: lateStation, wiring: wiring, clock: clock)
        let start = clock.now()
        var promptFigures: [StationFigures.Wind?] = []
        for second in 1...6 {
            clock.advance(by: 1_000_000_000)
            for station in [promptStation, lateStation] {
                station.record(WindSample(time: 0, speed: Double(second), direction: 90))
                if second == 3 { station.record(ProbeReading(name: "water", celsius: 12.5, problem: nil, time: 0)) }
            }
            prompt.tick(at: clock.now())
            promptFigures.append(prompt.figures?.wind)
        }
        // The late side takes everything at once, then serves each second's slot in turn.
        var lateFigures: [StationFigures.Wind?] = []
        var waterBefore: Double?
        for second in 1...6 {
            late.tick(at: start + MonotonicNanoseconds(second) * 1_000_000_000)
            lateFigures.append(late.figures?.wind)
            if second == 2 { waterBefore = late.figures?.waterTemperature }
        }
        #expect(lateFigures.map { $0?.seconds } == promptFigures.map { $0?.seconds }, "\(lateFigures.map { $0?.seconds })")
        #expect(lateFigures.map { $0?.speed } == promptFigures.map { $0?.speed })
        #expect(waterBefore == nil, "the probe read at 3 s is not the water's temperature at 2 s")
        #expect(late.figures?.waterTemperature == 12.5)
    }

    /// ENV with wind and water only (a board without a barometer): no altitude or QNH that
    /// would be made up, the probes by name, the problems said.
    @Test func envCarriesTheStationWithoutABarometer() throws {
        var figures = StationFigures()
        figures.wind = .init(speed: 5.2, gust: 8.4, lull: 3.1, now: 6.0, direction: 225, seconds: 600)
        figures.temperatures = [("water", 14.5), ("engine", 71.25)]
        figures.problems = ["probe air: CRC check failed"]
        let line = GPSDReports.line(
            .environment(
                EnvironmentReport(
                    pressure: nil, barometricAltitude: .nan, qnh: .nan, weather: nil,
                    device: "station", time: 1_782_028_800, station: figures)))
        let json = try JSONValue.parse(line)
        #expect(json["class"]?.stringValue == "ENV" && json["altBaro"] == nil && json["qnh"] == nil, "\(line)")
        #expect(json["windSpeed"]?.numberValue == 5.2 && json["windGust"]?.numberValue == 8.4 && json["windDirection"]?.numberValue == 225)
        #expect(json["windSeconds"]?.numberValue == 600 && json["windSpeed3s"]?.numberValue == 6)
        #expect(json["waterTemperature"]?.numberValue == 14.5 && json["temperatures"]?["engine"]?.numberValue == 71.25)
        #expect(json["stationProblems"]?.arrayValue?.first?.stringValue == "probe air: CRC check failed")
    }

    /// The barometer page shows the wind in the unit set's speed (knots on a boat) with its
    /// direction, the gust and the mean, and the water.
    @Test func theBarometerPageShowsWindAndWater() {
        var model = DisplayModel()
        var panel = DisplayModel.StationPanel()
        (panel.windNow, panel.windMean, panel.windGust, panel.windDirection) = (6.0, 5.0, 9.0, 225)
        panel.temperatures = [("water", 14.5)]
        model.station = panel
        model.units = .nautical
        let wide = DisplayPage.barometer.draw(model, columns: 60, rows: 14).text
        #expect(wide.contains("Wind    11.7 kn from SW 225°") && wide.contains("gust 17.5 kn") && wide.contains("Water   14.5 °C"), "\(wide)")
        model.units = .metric
        let small = DisplayPage.barometer.draw(model, columns: 21, rows: 7).text
        #expect(small.contains("Wind 21.6 km/h SW") && small.contains("14.5 °C Water"), "\(small)")
    }

    /// Eight seconds of the still scenario at 10x on the simulated board: the wind comes from
    /// reed-switch edges and an emulated ADS1115, the water from a w1_slave file with its CRC,
    /// and ENV's figures match the world's over the same window. The station stands ashore: ENV
    /// carries the true wind and no apparent one.
    @Test func theSimulatedStationReadsTheWorldsWindAndWater() throws {
        let end = EndToEndTests()
        let socket = "/tmp/lodestone-station-\(getpid()).sock", data = "/tmp/lodestone-station-data-\(getpid())"
        defer { removeTree(data) }
        let child = try end.spawn([
            "run", "--duration", "9", "--speed", "10", "--socket", socket, "--display", "none",
            "--scenario", "still", "--data-dir", data
        ])
        let client = try #require(end.connect(socket))
        client.send(#"?WATCH={"enable":true,"json":true};"#)
        var last: JSONValue?, devices: JSONValue?, health: JSONValue?
        var asked = false
        while let line = client.readLine(timeoutMilliseconds: 8000) {
            guard let report = try? JSONValue.parse(line) else { continue }
            if report["class"]?.stringValue == "ENV", report["windSeconds"] != nil {
                last = report
                if !asked {
                    client.send("?DEVICES;")
                    client.send("?STATUS;")
                    asked = true
                }
            }
            if report["class"]?.stringValue == "DEVICES" { devices = report }
            if report["class"]?.stringValue == "HEALTH" { health = report }
        }
        let (status, output) = end.finish(child)
        #expect(status == 0, "\(output)")
        let env = try #require(last, "no ENV with the wind")
        let judge = TripJudge(trip: try #require(RefereeTrip.named("still")), reports: [], speed: 10)
        let t = (CivilTime.parseISO8601(env["time"]?.stringValue ?? "") ?? 0) - judge.scenario.startUTC
        let seconds = try #require(env["windSeconds"]?.numberValue)
        #expect(seconds >= 30, "\(env)")
        let truth = judge.windTruth(from: t - seconds, to: t)
        #expect(abs((env["windSpeed"]?.numberValue ?? 0) - truth.mean) < 0.2, "\(env) against \(truth)")
        #expect(abs(Angle.signed((env["windDirection"]?.numberValue ?? 0) - (truth.direction ?? 999))) < 12, "\(env) against \(truth)")
        #expect(abs((env["waterTemperature"]?.numberValue ?? 0) - judge.scenario.waterTemperature(at: t)) < 0.1, "\(env)")
        // A shore station: the true wind (the vane's own direction, the world's), no apparent wind.
        #expect(env["windSpeedApparent"] == nil && env["windAngleApparent"] == nil, "\(env)")
        let trueNow = judge.windTruth(from: t - 3, to: t)
        #expect(abs((env["windSpeedTrue"]?.numberValue ?? -99) - trueNow.mean) < 1, "\(env) against \(trueNow)")
        #expect(abs(Angle.signed((env["windDirectionTrue"]?.numberValue ?? 0) - (trueNow.direction ?? 999))) < 12, "\(env) against \(trueNow)")
        #expect(access("/tmp/lodestone-w1-\(child.pid)-1", F_OK) != 0, "the simulated 1-Wire folder is removed at stop")
        // The station's parts in HEALTH; DEVICES keeps to the four gpsd's clients can take.
        let parts = health?["station"]?.arrayValue ?? []
        #expect(parts.compactMap { $0["driver"]?.stringValue } == ["anemometer", "ADS1115", "DS18B20 water"], "\(String(describing: health))")
        #expect(parts.allSatisfy { $0["health"]?.stringValue == "ok" })
        #expect((devices?["devices"]?.arrayValue?.count ?? 99) <= 4, "\(String(describing: devices))")
    }

    /// The boat scenario's board carries its cups and vane aboard, turning with the hull: they
    /// measure the wind over the moving deck. Under way ENV's apparent wind is the one the hull
    /// meets (the world's wind less the boat's velocity, within 1 m/s), and its true wind (the
    /// triangle with the heading, speed and course) is the world's wind over the water (within
    /// 1 m/s and 10°), each against the simulator's truth over the report's 3 s.
    @Test func underWayTheTrueWindIsTheWorldsWind() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-deck-\(getpid())", socket = data + ".sock"
        defer { removeTree(data) }
        // The built-in simulated board, as the boat scenario carries it: no board file.
        let child = try end.spawn([
            "run", "--scenario", "boat", "--speed", "20", "--duration", "240",
            "--socket", socket, "--display", "none", "--data-dir", data
        ])
        let client = try #require(end.connect(socket))
        // Only what the judge needs (TPV for the boat's speed, ENV for the wind): under way the
        // device sends hundreds of IMU, ATT and SKY reports a second at 20x, and a test process
        // slowed by others would fall behind them and be dropped as a client that stopped reading.
        client.send(#"?WATCH={"enable":true,"json":true,"rates":{"IMU":0,"ATT":0,"SKY":0,"TPV":5}};"#)
        let judge = TripJudge(trip: try #require(RefereeTrip.named("boat")), reports: [], speed: 20)
        var speedErrors: [Double] = [], directionErrors: [Double] = [], apparentErrors: [Double] = [], deckGaps: [Double] = []
        var boatSpeed = 0.0, lastTime = 0.0, reports = 0
        // A loaded machine can hold the device's output back for seconds: the stream ends only
        // when the device has said nothing for half a minute.
        reading: while let line = client.readLine(timeoutMilliseconds: 30000) {
            guard line.contains(#""class":"ENV""#) || line.contains(#""class":"TPV""#) else { continue }
            guard let report = try? JSONValue.parse(line), let time = report["time"]?.stringValue.flatMap(CivilTime.parseISO8601) else { continue }
            let t = time - judge.scenario.startUTC
            (lastTime, reports) = (t, reports + 1)
            if report["class"]?.stringValue == "TPV" { boatSpeed = report["speed"]?.numberValue ?? 0 }
            // After the swing that calibrates the compass, while the boat sails.
            guard report["class"]?.stringValue == "ENV", t > 180, boatSpeed > 1,
                let speed = report["windSpeedTrue"]?.numberValue, let direction = report["windDirectionTrue"]?.numberValue,
                let apparent = report["windSpeedApparent"]?.numberValue
            else { continue }
            let world = judge.windTruth(from: t - 3, to: t), deck = judge.windTruth(from: t - 3, to: t, overTheDeck: true)
            speedErrors.append(abs(speed - world.mean))
            directionErrors.append(abs(Angle.signed(direction - (world.direction ?? .nan))))
            apparentErrors.append(abs(apparent - deck.mean))
            deckGaps.append(abs(deck.mean - world.mean))
            if t > 540 {
                kill(child.pid, SIGTERM)
                break reading
            }
        }
        _ = end.finish(child)
        print(
            "wind under way, \(speedErrors.count) ENVs: true speed off by \(fixed(median(speedErrors), 2)) m/s, direction by "
                + "\(fixed(median(directionErrors), 1))° (medians, p95 \(fixed(quantile(speedErrors, 0.95), 2)) m/s, "
                + "\(fixed(quantile(directionErrors, 0.95), 1))°); apparent off the hull's by \(fixed(median(apparentErrors), 2)) m/s "
                + "(p95 \(fixed(quantile(apparentErrors, 0.95), 2))), the hull's from the world's by \(fixed(median(deckGaps), 2)) m/s")
        #expect(speedErrors.count >= 20, "\(speedErrors.count) ENVs with the true wind under way; \(reports) reports read, the last at \(lastTime) s")
        #expect(median(speedErrors) < 1.0, "true wind speed off the world's by \(median(speedErrors)) m/s (median)")
        #expect(median(directionErrors) < 10, "true wind direction off the world's by \(median(directionErrors))° (median)")
        #expect(median(apparentErrors) < 1.0, "apparent wind off the hull's by \(median(apparentErrors)) m/s (median)")
        // The deck's own motion is in what the cups measure: the apparent wind is another.
        #expect(median(deckGaps) > 1.0, "the hull's wind as the world's: \(median(deckGaps)) m/s apart")
    }

    /// The middle value; NaN when there is none.
    private func median(_ values: [Double]) -> Double { values.sorted().dropFirst(values.count / 2).first ?? .nan }
}
