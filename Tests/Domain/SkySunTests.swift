import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// The Sun against published and independent references.
@Suite struct SkySunTests {
    static let vectors: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/shared/vectors/"
    }()

    /// Reda and Andreas (2004), the worked example: Golden, Colorado, 17 October 2003,
    /// 12:30:30 local (UTC-7), delta T 67 s, 1830.14 m.
    @Test func matchesTheSPAPaperExample() {
        let time = CivilTime(year: 2003, month: 10, day: 17, hour: 19, minute: 30, second: 30).unixSeconds
        let sun = SolarPosition.at(time, latitude: 39.742476, longitude: -105.1786, elevation: 1830.14, deltaT: 67)
        #expect(abs(sun.longitude - 204.0085519281) < 0.00001, "\(sun.longitude)")
        #expect(abs(sun.rightAscension - 202.22741) < 0.00001, "\(sun.rightAscension)")
        #expect(abs(sun.declination - -9.31434) < 0.00001, "\(sun.declination)")
        #expect(abs(sun.distance - 0.9965422974) < 1e-9, "\(sun.distance)")
        #expect(abs(sun.altitude - 39.872046) < 0.00002, "\(sun.altitude)")
        #expect(abs(sun.azimuth - 194.34024) < 0.00002, "\(sun.azimuth)")
    }

    /// The same paper's sunrise and transit for that day (local 06:12:43 and 11:46:04, rounded
    /// to the second): within the brief's 10 s.
    @Test func matchesTheSPAPaperRiseTransitAndSet() throws {
        let midnight = CivilTime(year: 2003, month: 10, day: 17, hour: 7).unixSeconds
        let events = SunEvents.of(dayFrom: midnight, to: midnight + 86_400, latitude: 39.742476, longitude: -105.1786)
        func local(_ h: Int, _ m: Int, _ s: Int) -> Double { midnight + Double(h * 3600 + m * 60 + s) }
        #expect(abs(try #require(events.sunrise) - local(6, 12, 43)) < 10)
        #expect(abs(try #require(events.solarNoon) - local(11, 46, 4)) < 10)
        print("SPA example: sunrise \((events.sunrise ?? 0) - local(6, 12, 43)) s, transit \((events.solarNoon ?? 0) - local(11, 46, 4)) s from the paper")
        // Sunset: the hour angle where the centre is at -0.833° for that moment's declination
        // (cos H0 = (sin h0 - sin phi sin delta) / (cos phi cos delta)).
        let sunset = try #require(events.sunset)
        let p = SolarPosition.at(sunset, latitude: 39.742476, longitude: -105.1786)
        let phi = Angle.radians(39.742476), delta = Angle.radians(p.declination)
        let h0 = Angle.degrees(acos((sin(Angle.radians(-0.833)) - sin(phi) * sin(delta)) / (cos(phi) * cos(delta))))
        #expect(abs(p.hourAngle - h0) < 0.01, "\(p.hourAngle) vs \(h0)")
        let civilDawn = try #require(events.civilDawn), sunrise = try #require(events.sunrise)
        #expect(civilDawn < sunrise && sunrise - civilDawn < 40 * 60)
        #expect(events.blueHourMorning.start == events.civilDawn && events.goldenHourMorning.start == events.blueHourMorning.end)
    }

    /// Polar day and night, and a summer night that never gets astronomically dark: those
    /// events are nil, and the day's length says so.
    @Test func eventsThatDoNotHappenAreNil() {
        let june = CivilTime(year: 2025, month: 6, day: 21).unixSeconds
        let tromso = SunEvents.of(dayFrom: june - 3600, to: june + 82_800, latitude: 69.65, longitude: 18.96)
        #expect(tromso.sunrise == nil && tromso.sunset == nil && tromso.dayLength == 86_400)
        let december = CivilTime(year: 2025, month: 12, day: 21).unixSeconds
        let night = SunEvents.of(dayFrom: december - 3600, to: december + 82_800, latitude: 69.65, longitude: 18.96)
        #expect(night.sunrise == nil && night.dayLength == 0 && night.civilDawn != nil)
        let london = SunEvents.of(dayFrom: june, to: june + 86_400, latitude: 51.5, longitude: -0.13)
        #expect(london.sunrise != nil && london.astronomicalDawn == nil && london.astronomicalDusk == nil)
    }

    /// Rise, set and the three twilights at 60 random places between 65 S and 65 N, 1900-2100,
    /// against DE421 (Tests/Domain/Vectors/sun_events_de421.csv, written by
    /// scripts/sun-reference.py): within 10 s, and absent exactly where the ephemeris says the
    /// Sun never reaches that depression.
    @Test func risesSetsAndTwilightsMatchDE421() throws {
        let text = try String(contentsOfFile: SkyPlanetTests.vectors + "sun_events_de421.csv")
        var days: [String: SunEvents] = [:]
        var worst = 0.0, timed = 0, absent = 0
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count == 5, let start = Double(f[0]), let latitude = Double(f[1]), let longitude = Double(f[2]) else { continue }
            let key = String(f[0] + f[1] + f[2])
            let events = days[key] ?? SunEvents.of(dayFrom: start, to: start + 86_400, latitude: latitude, longitude: longitude)
            days[key] = events
            let ours: Double?
            switch f[3] {
            case "astronomicalDawn": ours = events.astronomicalDawn
            case "nauticalDawn": ours = events.nauticalDawn
            case "civilDawn": ours = events.civilDawn
            case "sunrise": ours = events.sunrise
            case "sunset": ours = events.sunset
            case "civilDusk": ours = events.civilDusk
            case "nauticalDusk": ours = events.nauticalDusk
            default: ours = events.astronomicalDusk
            }
            if let reference = Double(f[4]) {
                let difference = abs(try #require(ours, "\(line): missing") - reference)
                #expect(difference < 10, "\(line): \(difference) s")
                worst = max(worst, difference)
                timed += 1
            } else {
                #expect(ours == nil, "\(line): \(ours ?? 0) where DE421 has none")
                absent += 1
            }
        }
        print("sun events: \(timed) times, worst difference from DE421 \(worst) s; \(absent) events that do not happen")
        #expect(timed + absent == 480)
    }

    /// Equinoxes and solstices 2025-2035 against the DE421 times in ../shared/vectors: within 60 s.
    @Test func seasonsMatchTheEphemeris() throws {
        guard let text = try? String(contentsOfFile: Self.vectors + "seasons_2025_2035.csv") else {
            print("skipped: ../shared/vectors/seasons_2025_2035.csv is not present")
            return
        }
        var worst = 0.0, count = 0
        // CRLF lines: one Character in Swift, so split on any newline.
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let reference = CivilTime.parseISO8601(String(fields[1]) + "Z") else { continue }
            let year = CivilTime(unixSeconds: reference).year
            let event: Seasons.Event
            switch fields[0] {
            case "Vernal Equinox": event = .marchEquinox
            case "Summer Solstice": event = .juneSolstice
            case "Autumnal Equinox": event = .septemberEquinox
            default: event = .decemberSolstice
            }
            let ours = Seasons.instant(event, year: year)
            worst = max(worst, abs(ours - reference))
            count += 1
        }
        print("seasons: \(count) events, worst difference from DE421 \(worst) s")
        #expect(count == 44 && worst < 60)
    }
}

extension String {
    init(contentsOfFile path: String) throws {
        guard let file = fopen(path, "r") else { throw CocoaLessError() }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        self = String(decoding: bytes, as: UTF8.self)
    }
}

struct CocoaLessError: Error {}
