import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneStorage

/// A satellite (the ISS unless told otherwise) over the running device, from a local TLE file:
/// its next visible passes over the observer's place, worked out every six hours for the next
/// day, an EVENT and the buzzer's `satellitePass` pattern `alertMinutes` before each visible one
/// rises, and where it is now for the sky chart.
package final class SatelliteService {
    let satellite: SGP4
    package let name: String
    let alertMinutes: Double
    private(set) var passes: [SatellitePasses.Pass] = []
    private var computed = -Double.infinity
    private var computedAt: (latitude: Double, longitude: Double)?
    private var announced = Set<Double>()
    static let horizon = 24 * 3600.0, refresh = 6 * 3600.0

    /// Reads the TLE file; nil (with the reason logged) when it holds nothing usable.
    package init?(file: String, satellite wanted: String?, alertMinutes: Double) {
        let text: String
        do { text = try readTextFile(file, limit: 16 << 20) } catch {
            Log.warning("\(file): \(error.description); no satellite passes")
            return nil
        }
        let parsed = TwoLineElements.all(in: text)
        for problem in parsed.problems { Log.warning("\(file): \(problem)") }
        let chosen =
            parsed.sets.first { tle in
                if let wanted { return String(tle.catalogNumber) == wanted || tle.name.lowercased().contains(wanted.lowercased()) }
                return tle.catalogNumber == 25544 || tle.name.uppercased().hasPrefix("ISS")
            } ?? (wanted == nil ? parsed.sets.first : nil)
        guard let tle = chosen, let model = try? SGP4(tle) else {
            Log.warning("\(file): no satellite \(wanted.map { "'\($0)' " } ?? "")that can be propagated; no satellite passes")
            return nil
        }
        satellite = model
        name = tle.name.isEmpty ? String(tle.catalogNumber) : tle.name
        self.alertMinutes = alertMinutes
    }

    /// Once a second: the EVENTs of visible passes `alertMinutes` away, passes recomputed when due.
    package func tick(place: (latitude: Double, longitude: Double), time: Double) -> [Report] {
        let moved = computedAt.map { abs($0.latitude - place.latitude) > 0.5 || abs($0.longitude - place.longitude) > 0.5 } ?? true
        if moved || time - computed >= Self.refresh || time < computed {
            passes = SatellitePasses.passes(
                satellite, from: time, to: time + Self.horizon, latitude: place.latitude, longitude: place.longitude,
                minimumAltitude: 10
            ).filter(\.visible)
            (computed, computedAt) = (time, place)
        }
        var reports: [Report] = []
        for pass in passes where !announced.contains(pass.rise) && time >= pass.rise - alertMinutes * 60 && time < pass.rise {
            announced.insert(pass.rise)
            reports.append(
                .event(
                    EventReport(
                        .satellitePass(
                            satellite: name, rise: pass.rise, culmination: pass.culmination,
                            maximumAltitude: pass.maximumAltitude, riseAzimuth: pass.riseAzimuth), time: time)))
        }
        return reports
    }

    /// Every pass (visible or not) over a place between two moments, at least 10° high.
    package func passes(place: (latitude: Double, longitude: Double), from start: Double, to end: Double) -> [SatellitePasses.Pass] {
        SatellitePasses.passes(satellite, from: start, to: end, latitude: place.latitude, longitude: place.longitude, minimumAltitude: 10)
    }

    /// Where the satellite is now, when it is above the horizon.
    package func position(place: (latitude: Double, longitude: Double), time: Double) -> (altitude: Double, azimuth: Double, sunlit: Bool)? {
        guard let look = SatellitePasses.look(satellite, at: time, latitude: place.latitude, longitude: place.longitude), look.altitude > 0 else { return nil }
        return (look.altitude, look.azimuth, look.sunlit)
    }
}
