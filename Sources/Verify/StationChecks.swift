import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneSim

/// The referee's checks of the weather station: ENV's 10-minute mean wind, gust and mean
/// direction against the world's wind over the same minutes (aboard, the wind over the moving
/// deck: what the cups and the vane turning with the hull meet), and the water's temperature
/// against the world's water at the report's instant. The apparent and true wind now are
/// judged in `windTriangleChecks`.
extension TripJudge {
    struct StationReading {
        var t: Double
        var speed: Double?, gust: Double?, direction: Double?, seconds: Double?
        var water: Double?
    }

    var stationReadings: [StationReading] {
        reports.compactMap { report in
            guard report.reportClass == "ENV", let t = time(report) else { return nil }
            let json = report.json
            return StationReading(
                t: t, speed: json["windSpeed"]?.numberValue, gust: json["windGust"]?.numberValue,
                direction: json["windDirection"]?.numberValue, seconds: json["windSeconds"]?.numberValue,
                water: json["waterTemperature"]?.numberValue)
        }
    }

    func stationChecks() -> [RefereeCheck] {
        let wiring = trip.board.station
        let aboard = wiring.vane?.aboard ?? false
        var rows: [RefereeCheck] = []
        let readings = stationReadings
        if wiring.anemometer != nil {
            // Judged once a minute of samples is in, every 30 s of the trip (the truth is integrated).
            var speedError = 0.0, gustError = 0.0, directionError = 0.0, judged = 0, directions = 0
            var lastJudged = -Double.infinity
            for reading in readings where reading.t - lastJudged >= 30 {
                guard let speed = reading.speed, let seconds = reading.seconds, seconds >= 60 else { continue }
                lastJudged = reading.t
                let truth = windTruth(from: reading.t - seconds, to: reading.t, overTheDeck: aboard)
                judged += 1
                speedError = max(speedError, abs(speed - truth.mean))
                if let gust = reading.gust { gustError = max(gustError, abs(gust - truth.gust) / truth.gust) }
                if wiring.vane != nil, let direction = reading.direction, let trueDirection = truth.direction {
                    directions += 1
                    directionError = max(directionError, abs(Angle.signed(direction - trueDirection)))
                }
            }
            guard judged > 0 else {
                return [.missing(trip: trip.name, name: "wind mean speed", "no ENV carried a wind over a minute or more")]
            }
            rows.append(
                RefereeCheck(
                    trip: trip.name, name: "wind mean speed error", measured: speedError, atMost: 0.15, unit: "m/s",
                    "largest difference of ENV windSpeed from the world's mean wind over the same window, \(judged) reports"))
            rows.append(
                RefereeCheck(
                    trip: trip.name, name: "wind gust error", measured: 100 * gustError, atMost: 8, unit: "%",
                    "largest difference of ENV windGust from the world's highest 3 s mean over the same window"))
            if wiring.vane != nil {
                rows.append(
                    directions > 0
                        ? RefereeCheck(
                            trip: trip.name, name: "wind direction error", measured: directionError, atMost: 8, unit: "°",
                            "largest difference of ENV windDirection (a 16-step vane) from the world's mean wind direction, \(directions) reports")
                        : .missing(trip: trip.name, name: "wind direction error", "no ENV carried a wind direction"))
            }
        }
        if wiring.probes.contains(where: { $0.name == "water" }) {
            let waters = readings.compactMap { r in r.water.map { (r.t, $0) } }
            let worst = waters.map { abs($0.1 - scenario.waterTemperature(at: $0.0)) }.max()
            rows.append(
                worst.map {
                    RefereeCheck(
                        trip: trip.name, name: "water temperature error", measured: $0, atMost: 0.1, unit: "°C",
                        "largest difference of ENV waterTemperature from the world's water, \(waters.count) reports (the probe reads 1/16 °C)")
                } ?? .missing(trip: trip.name, name: "water temperature error", "no ENV carried waterTemperature"))
        }
        return rows + windTriangleChecks()
    }

    /// The world's wind from `start` to `end` (world seconds): the mean speed, the highest
    /// 3 s mean (WMO's gust), and the direction of the mean wind vector. `overTheDeck`: the
    /// wind the moving hull meets (the world's wind less the boat's velocity), its direction
    /// from the bow.
    func windTruth(from start: Double, to end: Double, overTheDeck: Bool = false) -> (mean: Double, gust: Double, direction: Double?) {
        let step = 0.1
        var speeds: [Double] = []
        var north = 0.0, east = 0.0
        var t = max(0, start) + step / 2
        while t < end {
            let wind = overTheDeck ? deckWind(at: t) : (speed: scenario.windSpeed(at: t), from: scenario.windDirection(at: t))
            let speed = wind.speed, direction = Angle.radians(wind.from)
            speeds.append(speed)
            north += speed * cos(direction)
            east += speed * sin(direction)
            t += step
        }
        guard !speeds.isEmpty else { return (.nan, .nan, nil) }
        let mean = speeds.reduce(0, +) / Double(speeds.count)
        let span = Int(3 / step)
        var gust = mean, running = 0.0
        for (index, speed) in speeds.enumerated() {
            running += speed
            if index >= span { running -= speeds[index - span] }
            if index >= span - 1 { gust = max(gust, running / Double(span)) }
        }
        let direction = hypot(north, east) > 1e-9 ? Angle.heading(Angle.degrees(atan2(east, north))) : nil
        return (mean, gust, direction)
    }

    /// The wind over the deck at `t`: speed (m/s) and the angle it comes from, degrees from
    /// the bow, from the scenario's own motion (speed, course and heading are pure functions
    /// of time).
    func deckWind(at t: Double) -> (speed: Double, from: Double) {
        let boat = scenario.motion(at: t)
        let deck = scenario.apparentWind(at: t, speed: boat.speed, course: boat.course, heading: boat.yaw)
        return (deck.speed, deck.fromBow)
    }
}
