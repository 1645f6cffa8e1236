import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports

/// A display model with every panel filled, as on a walk above Interlaken one late-November
/// afternoon: fixed values, so page drawings and screenshots are the same on every run.
enum DisplayFixtures {
    static var walk: DisplayModel {
        var model = DisplayModel()
        model.title = "sim"
        model.clock = "15:00"
        var state = DisplayModel.Reading()
        state.attitude = TiltCompensatedHeading(roll: 2.5, pitch: -1.2, magneticHeading: 40.6)
        state.declination = 3.4
        state.trueHeading = 44.0
        state.headingAccuracy = 1.2
        state.fix.mode = .threeD
        state.fix.latitude = 46.686_3
        state.fix.longitude = 7.863_5
        state.fix.altitudeMSL = 1_021.4
        state.fix.speed = 1.3
        state.fix.course = 47
        state.fix.satellitesUsed = 9
        state.fix.satellitesVisible = 12
        state.fix.hdop = 0.9
        state.fix.eph = 3.5
        state.barometricAltitude = 1_019.8
        state.imuHealth = .ok
        state.magnetometerHealth = .ok
        state.barometerHealth = .ok
        state.gpsHealth = .ok
        model.state = state
        model.compass.calibration = .good
        model.compass.lockedBearing = 30
        model.compass.deviation = 14
        model.compass.offCourse = true
        model.compass.steps = 4_210
        model.position.confidence = 92
        (model.level.roll, model.level.pitch) = (2.5, -1.2)
        var weather = DisplayModel.WeatherPanel()
        weather.stationPressure = 897.3
        weather.seaLevelPressure = 1_016.8
        weather.fusedAltitude = 1_020.6
        weather.temperature = 6.5
        weather.trendArrow = "↓"
        weather.trendRate = -0.7
        weather.trendBand = "falling"
        weather.threeHourChange = -2.1
        weather.graphs = [
            ("1h", (0..<60).map { 1_017.5 - Double($0) / 60 }), ("6h", (0..<72).map { 1_020 - Double($0) / 24 }),
            ("24h", (0..<96).map { 1_019 + sin(Double($0) / 15) }), ("7d", (0..<168).map { 1_012 + Double($0 % 40) / 8 })
        ]
        model.weather = weather
        // A walk along a lake shore with the weather station's anemometer and a probe in the lake.
        var station = DisplayModel.StationPanel()
        (station.windNow, station.windMean, station.windGust, station.windDirection) = (4.2, 3.6, 7.8, 250)
        station.temperatures = [("water", 11.5)]
        model.station = station
        var sky = SkyPanel()
        sky.next = ("sunset", "16:46", 6_360)
        sky.events = [
            ("astronomicalDawn", "05:49"), ("nauticalDawn", "06:25"), ("civilDawn", "07:03"), ("blueHourMorning", "07:03-07:15"),
            ("sunrise", "07:37"), ("goldenHourMorning", "07:15-08:24"), ("solarNoon", "12:12"), ("goldenHourEvening", "16:00-17:08"),
            ("sunset", "16:46"), ("blueHourEvening", "17:08-17:21"), ("civilDusk", "17:21"), ("nauticalDusk", "17:59"),
            ("astronomicalDusk", "18:35")
        ].map { SkyPanel.Moment(name: $0.0, clock: $0.1) }
        sky.dayLength = 32_940
        sky.sunAltitude = 9.8
        sky.sunAzimuth = 228
        sky.light = "day"
        sky.moonPhase = "Waxing Gibbous"
        sky.moonIllumination = 0.93
        sky.moonAge = 12.3
        sky.season = "autumn"
        sky.nextSeason = "winter"
        sky.daysUntilSeason = 28
        sky.seasonProgress = 0.694
        model.sky = sky
        var track = DisplayModel.TrackPanel()
        track.state = "recording"
        track.name = "Harder Kulm"
        track.points = 412
        track.distance = 5_230
        track.elapsed = 6_300
        track.movingTime = 5_400
        track.averageSpeed = 0.97
        track.elevationGain = 431
        track.elevationLoss = 22
        // A climb north-east from Interlaken, zigzagging up: 5.2 km, with a summit waypoint.
        track.path = (0...120).map { (i: Int) -> (latitude: Double, longitude: Double) in
            let t = Double(i) / 120.0
            let latitude: Double = 46.6863 + 0.012 * t + 0.0015 * sin(t * 40.0)
            return (latitude, 7.8635 + 0.018 * t)
        }
        track.here = track.path.last
        track.waypoints = [("Harder Kulm", 46.6990, 7.8840)]
        track.profile = (0...100).map { (step: Int) -> Double in
            let along = Double(step)
            return 570.0 + 4.31 * along - 8.0 * sin(along / 7.0)
        }
        track.splits = [1_080, 1_140, 1_260, 1_020, 1_200]
        model.track = track
        // The sky over Bern on the evening of the 2026 June solstice: the Sun set, a waxing Moon.
        model.chart = SkyChart.at(CivilTime(year: 2026, month: 6, day: 21, hour: 20).unixSeconds, latitude: 46.95, longitude: 7.45)
        model.navigation = DisplayModel.NavigationPanel(waypoint: "Summit", distance: 2_900, bearing: 28, relativeBearing: -16, eta: 3_000)
        model.health.profile = "walking"
        model.health.clients = 2
        // The sampling loop's figures and the scheduler's tasks, as a device an hour into a walk has them.
        var loop = LoopStatistics()
        (loop.ticks, loop.overruns, loop.rateHz) = (720_000, 3, 200)
        (loop.latenessP50Microseconds, loop.latenessP99Microseconds, loop.latenessMaxMicroseconds) = (42, 180, 2_350)
        model.health.loop = loop
        model.health.tasks = [("imu", 200.0, 310), ("mag", 100, 240), ("baro", 25, 420), ("process", 100, 150), ("gps", 10, 95)].map { name, rate, mean in
            var statistics = TaskStatistics()
            (statistics.runs, statistics.rateHz) = (UInt64(rate * 3_600), rate)
            statistics.totalExecution = statistics.runs * UInt64(mean * 1_000)
            statistics.maxExecution = UInt64(mean * 4_000)
            return TaskLine(name: name, statistics: statistics, budgetMicroseconds: 800)
        }
        var departures = DisplayModel.DeparturesPanel(stop: "Interlaken West")
        departures.rows = [
            .init(clock: "15:20", route: "BLS", headsign: "Thun", secondsToGo: 1_200, mark: "Bluemlisalp", rating: 5),
            .init(clock: "16:20", route: "BLS", headsign: "Spiez", secondsToGo: 4_800),
            .init(clock: "17:20", route: "BLS", headsign: "Thun", secondsToGo: 8_400)
        ]
        model.departures = departures
        // The day's boats every hour from 08:20 to 19:20, a paddle steamer at 15:20; 15:00 now.
        let morning = CivilTime(year: 2026, month: 11, day: 26, hour: 7).unixSeconds
        var waves = DisplayModel.WavesPanel(
            stop: "Interlaken West", weekday: 3, date: "11-26", latitude: 46.683, longitude: 7.851, now: morning + 7 * 3600, start: morning,
            end: morning + 11 * 3600)
        (waves.sunrise, waves.sunset, waves.litWaves, waves.litGapMinutes) = ("07:37", "16:46", 9, 60)
        waves.hours = (0...11).map { (morning + Double($0) * 3600, 8 + $0, zeroPadded(8 + $0, 2)) }
        for hour in 0..<12 {
            let steamer = hour == 7
            let time: Double = morning + Double(hour) * 3600 + 1_200
            waves.waves.append(
                .init(
                    time: time, count: steamer ? 3 : 1, clock: zeroPadded(8 + hour, 2) + ":20", route: "BLS", headsign: "Thun",
                    ship: steamer ? "Bluemlisalp" : nil))
        }
        waves.sessions = [.init(start: morning + 6 * 3600 + 1_200, end: morning + 8 * 3600 + 1_200, span: "14:20-16:20", waves: 3, points: 14)]
        waves.next = .init(clock: "15:20", count: 3, minutes: 20, days: 0)
        model.waves = waves
        var day = DisplayModel.DayPanel()
        (day.steps, day.distance, day.floorsUp, day.floorsDown, day.activeSeconds, day.cadence, day.state) = (12_345, 8_420, 14, 3, 6_300, 112, "walking")
        // A morning's walk and an afternoon's, the hour now (10:00) the one under way.
        day.stepsByHour = [0, 0, 0, 0, 0, 0, 0, 310, 2_480, 3_105, 1_650, 0, 0, 0, 920, 2_210, 1_670, 0, 0, 0, 0, 0, 0, 0]
        day.hourNow = 10
        model.day = day
        model.connect = ConnectPanel(url: "http://192.168.1.20:8080/pair?code=7q2x9kmdab", minutesLeft: 9)
        return model
    }

    /// A motor boat on Lake Zurich on a winter night, in nautical units: long names with
    /// accents, a waypoint across the lake, departures from the city pier, no steps walked.
    static var boat: DisplayModel {
        var model = walk
        model.title = "Küsnacht"
        model.units = .nautical
        model.north = .magnetic
        model.clock = "21:40"
        model.state.fix.latitude = 47.318
        model.state.fix.longitude = 8.582
        model.state.fix.altitudeMSL = 406.2
        model.state.fix.speed = 7.6
        model.state.fix.course = 151
        model.state.attitude = TiltCompensatedHeading(roll: -6.5, pitch: 3.1, magneticHeading: 146.2)
        model.state.trueHeading = 149.1
        model.compass.calibratesBySwing = true
        model.compass.steps = nil
        (model.level.roll, model.level.pitch) = (-6.5, 3.1)
        model.navigation = DisplayModel.NavigationPanel(
            waypoint: "Rüschlikon Schiffstation Süd", distance: 3_700, bearing: 212,
            relativeBearing: 63, eta: 940)
        model.track?.name = "Zürich Bürkliplatz – Rapperswil, über Männedorf"
        model.track?.waypoints = [("Männedorf Landungssteg", 47.2540, 8.6910), ("Île Ufenau", 47.2176, 8.7780)]
        var departures = DisplayModel.DeparturesPanel(stop: "Zürich Bürkliplatz (See)")
        departures.rows = [
            .init(
                clock: "21:55", route: "ZSG 3732", headsign: "Rapperswil SG über Küsnacht ZH, Meilen, Männedorf", secondsToGo: 900,
                mark: "MS Wädenswil", rating: 4),
            .init(clock: "22:25", route: "ZSG", headsign: "Thalwil – Wädenswil – Horgen", secondsToGo: 2_700),
            .init(clock: "23:05", route: "ZSG", headsign: "Kilchberg ZH Bendlikon", secondsToGo: 5_100)
        ]
        model.departures = departures
        model.chart = SkyChart.at(CivilTime(year: 2026, month: 12, day: 21, hour: 20, minute: 40).unixSeconds, latitude: 47.32, longitude: 8.58)
        model.day = nil
        model.station = nil
        model.health.profile = "boat"
        return model
    }

    /// A lakeside station on the Bodensee with no fix yet: the sky from the configured place,
    /// several probes with accented names, the day's waves from a pier with a long name.
    static var lakeside: DisplayModel {
        var model = walk
        model.title = "Überlingen"
        model.units = .imperial
        model.state.fix = GPSFix()
        model.state.attitude = nil
        model.state.trueHeading = nil
        model.compass = DisplayModel.CompassPanel()
        model.navigation = nil
        model.track = nil
        model.level = DisplayModel.LevelPanel()
        var station = DisplayModel.StationPanel()
        (station.windNow, station.windMean, station.windGust, station.windDirection) = (9.4, 7.1, 14.2, 237)
        station.temperatures = [("Wasser Strandbad Überlingen", 17.5), ("Luft Mantelhafen", 21.0), ("Bojen-Fühler 2 m", 15.25)]
        // The thickest suit: the longest words.
        station.wetsuit = 5
        station.outlook = "D"
        model.station = station
        model.sky?.placeNote = .configured
        var waves = model.waves
        waves?.stop = "Überlingen Landungsplatz Mantelhafen"
        model.waves = waves
        var departures = DisplayModel.DeparturesPanel(stop: "Überlingen Landungsplatz Mantelhafen")
        departures.rows = [
            .init(
                clock: "10:05", route: "BSB", headsign: "Meersburg – Hagnau – Immenstaad – Friedrichshafen", secondsToGo: 300,
                mark: "MS Überlingen", rating: 3),
            .init(clock: "11:40", route: "BSB", headsign: "Mainau – Unteruhldingen", secondsToGo: 6_000)
        ]
        model.departures = departures
        model.health.profile = "station"
        return model
    }
}
