import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// Eclipses against NASA's Five Millennium Canons and JPL DE421 (Tests/Domain/Vectors, see
/// eclipses_canon.md and scripts/eclipse-reference.py), and local circumstances against
/// published figures.
@Suite struct EclipseTests {
    /// Every eclipse 2000-2100, computed once for all the tests that want it.
    static let century: [Eclipse] = {
        guard let start = CivilTime.parseISO8601("2000-01-01T00:00:00Z"), let end = CivilTime.parseISO8601("2101-01-01T00:00:00Z") else { return [] }
        return Eclipses.between(start, end)
    }()

    struct Reference {
        var greatest: Double, type: String, magnitude: Double
        var extra: Double?
    }

    /// The rows of a vector file (`greatest_utc,type,magnitude[,more]`), nil when it is absent.
    static func references(_ file: String) -> [Reference]? {
        guard let text = try? String(contentsOfFile: SkyPlanetTests.vectors + file) else { return nil }
        return text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            let f = line.split(separator: ",").map(String.init)
            guard f.count >= 3, let t = CivilTime.parseISO8601(f[0]), let m = Double(f[2]) else { return nil }
            return Reference(greatest: t, type: f[1], magnitude: m, extra: f.count > 3 ? Double(f[3]) : nil)
        }
    }

    struct Comparison {
        var matched = 0, missing: [String] = [], extra: [String] = [], wrongType: [String] = []
        var worstTime = 0.0, worstTimeAt = "", worstMagnitude = 0.0, worstMagnitudeAt = ""
        var worstExtra = 0.0

        var summary: String {
            "\(matched) matched; worst greatest eclipse \((worstTime * 10).rounded() / 10) s (\(worstTimeAt)), worst magnitude "
                + "\((worstMagnitude * 10_000).rounded() / 10_000) (\(worstMagnitudeAt)); missing \(missing), extra \(extra), wrong type \(wrongType)"
        }
    }

    /// Pairs each reference eclipse with ours of the same kind within a day.
    static func compare(_ kind: Eclipse.Kind, with references: [Reference], extraIsPenumbral: Bool = false) -> Comparison {
        var result = Comparison()
        let ours = century.filter { $0.kind == kind }
        var used = Set<Int>()
        for reference in references {
            let stamp = CivilTime(unixSeconds: reference.greatest).iso8601
            guard let (index, eclipse) = ours.enumerated().min(by: { abs($0.1.greatest - reference.greatest) < abs($1.1.greatest - reference.greatest) }),
                abs(eclipse.greatest - reference.greatest) < 86_400
            else {
                result.missing.append(stamp)
                continue
            }
            used.insert(index)
            result.matched += 1
            if eclipse.type.rawValue != reference.type { result.wrongType.append("\(stamp) \(eclipse.type.rawValue) not \(reference.type)") }
            let dt = abs(eclipse.greatest - reference.greatest), dm = abs(eclipse.magnitude - reference.magnitude)
            if dt > result.worstTime { (result.worstTime, result.worstTimeAt) = (dt, stamp) }
            if dm > result.worstMagnitude { (result.worstMagnitude, result.worstMagnitudeAt) = (dm, stamp) }
            if extraIsPenumbral, let penumbral = reference.extra, let mine = eclipse.penumbralMagnitude {
                result.worstExtra = max(result.worstExtra, abs(mine - penumbral))
            }
        }
        for (index, eclipse) in ours.enumerated() where !used.contains(index) {
            result.extra.append(CivilTime(unixSeconds: eclipse.greatest).iso8601)
        }
        return result
    }

    static func check(_ kind: Eclipse.Kind, _ file: String, count: Int, penumbral: Bool = false) {
        guard let references = references(file) else {
            print("skipped: Tests/Domain/Vectors/\(file) is not present")
            return
        }
        let result = compare(kind, with: references, extraIsPenumbral: penumbral)
        print(
            "\(kind.rawValue) eclipses against \(file): \(result.summary)"
                + (penumbral ? ", worst penumbral magnitude \((result.worstExtra * 10_000).rounded() / 10_000)" : ""))
        #expect(references.count == count, "\(file) has \(references.count) rows")
        #expect(result.missing.isEmpty && result.extra.isEmpty && result.wrongType.isEmpty, "\(result.summary)")
        #expect(result.worstTime <= 60 && result.worstMagnitude <= 0.01, "\(result.summary)")
        if penumbral { #expect(result.worstExtra <= 0.01, "penumbral magnitude \(result.worstExtra)") }
    }

    @Test func solarEclipsesMatchTheCanon() { Self.check(.solar, "solar_eclipses_canon.csv", count: 228) }
    @Test func lunarEclipsesMatchTheCanon() { Self.check(.lunar, "lunar_eclipses_canon.csv", count: 230) }
    @Test func solarEclipsesMatchDE421() { Self.check(.solar, "solar_eclipses_de421.csv", count: 228) }
    @Test func lunarEclipsesMatchDE421() { Self.check(.lunar, "lunar_eclipses_de421.csv", count: 230, penumbral: true) }

    // MARK: Local circumstances against published figures

    static func time(_ iso: String) -> Double { CivilTime.parseISO8601(iso) ?? .nan }

    /// The eclipse of `kind` whose greatest eclipse follows `iso` by less than two days.
    static func eclipse(_ kind: Eclipse.Kind, near iso: String) -> Eclipse? {
        Eclipses.upcoming(after: time(iso) - 2 * 86_400, count: 2).first { $0.kind == kind && abs($0.greatest - time(iso)) < 2 * 86_400 }
    }

    /// Minutes and seconds between two instants, for failure messages.
    static func gap(_ a: Double?, _ b: Double) -> String { a.map { "\((($0 - b) * 10).rounded() / 10) s" } ?? "missing" }

    struct PublishedPartial {
        var place: String, latitude: Double, longitude: Double, elevation: Double
        var c1: String, maximum: String, c4: String
        var altitudes: (c1: Double, maximum: Double, c4: Double)
        var magnitude: Double, obscuration: Double
    }

    /// NASA RP 1398, Espenak and Anderson, "Total Solar Eclipse of 1999 August 11" (1997), table
    /// 21, https://eclipse.gsfc.nasa.gov/SEpubs/19990811/tables/table_21.html: two places that
    /// saw a deep partial eclipse, with the bulletin's coordinates, heights, contacts (UT), the
    /// Sun's altitude at each, magnitude and obscuration.
    static let nasa1999: [PublishedPartial] = [
        PublishedPartial(
            place: "Oslo", latitude: 59 + 55.0 / 60, longitude: 10 + 45.0 / 60, elevation: 94,
            c1: "1999-08-11T09:24:38.1Z", maximum: "1999-08-11T10:35:29.3Z", c4: "1999-08-11T11:47:14.0Z",
            altitudes: (41, 45, 45), magnitude: 0.718, obscuration: 0.651),
        PublishedPartial(
            place: "Gdansk", latitude: 54 + 23.0 / 60, longitude: 18 + 40.0 / 60, elevation: 11,
            c1: "1999-08-11T09:29:46.7Z", maximum: "1999-08-11T10:46:50.9Z", c4: "1999-08-11T12:03:27.7Z",
            altitudes: (48, 51, 48), magnitude: 0.818, obscuration: 0.776)
    ]

    @Test func partialEclipseOf1999MatchesNASABulletin() throws {
        let eclipse = try #require(Self.eclipse(.solar, near: "1999-08-11T11:03:00Z"))
        for p in Self.nasa1999 {
            let local = try #require(EclipseLocal.solar(eclipse, latitude: p.latitude, longitude: p.longitude, elevation: p.elevation), "\(p.place)")
            let errors = [abs(local.c1 - Self.time(p.c1)), abs(local.maximum - Self.time(p.maximum)), abs(local.c4 - Self.time(p.c4))]
            print(
                "1999-08-11 at \(p.place): C1 \(Self.gap(local.c1, Self.time(p.c1))), max \(Self.gap(local.maximum, Self.time(p.maximum))), "
                    + "C4 \(Self.gap(local.c4, Self.time(p.c4))), magnitude \(local.magnitude) (\(p.magnitude)), obscuration \(local.obscuration) (\(p.obscuration))"
            )
            #expect(errors.allSatisfy { $0 < 60 }, "\(p.place): \(errors)")
            #expect(local.type == .partial && local.c2 == nil && local.c3 == nil && local.visible)
            #expect(abs(local.magnitude - p.magnitude) < 0.005, "\(p.place) magnitude \(local.magnitude)")
            #expect(abs(local.obscuration - p.obscuration) < 0.01, "\(p.place) obscuration \(local.obscuration)")
            #expect(
                abs(local.sunAltitudeAtC1 - p.altitudes.c1) < 1 && abs(local.sunAltitudeAtMaximum - p.altitudes.maximum) < 1
                    && abs(local.sunAltitudeAtC4 - p.altitudes.c4) < 1, "\(p.place) altitudes")
        }
    }

    /// 2017-08-21 from Casper, Wyoming (42°51'N 106°19'30"W, 1560 m: the city's coordinates).
    /// F. Espenak's report from Casper College, a few kilometres from those coordinates
    /// (http://www.mreclipse.com/SEphoto/TSE2017/TSE2017report.html): C1 10:22:15 and C2
    /// 11:42:37 MDT; the city's festival site (http://eclipsecasper.com/eclipse/): totality of 2 min
    /// 26 s ending at 11:45, last contact at 1:09 pm MDT (whole minutes).
    @Test func totalEclipseOf2017FromCasper() throws {
        let eclipse = try #require(Self.eclipse(.solar, near: "2017-08-21T18:25:30Z"))
        let local = try #require(EclipseLocal.solar(eclipse, latitude: 42.85, longitude: -106.325, elevation: 1560))
        let c2 = try #require(local.c2), c3 = try #require(local.c3)
        print(
            "2017-08-21 at Casper: C1 \(Self.gap(local.c1, Self.time("2017-08-21T16:22:15Z"))), C2 \(Self.gap(c2, Self.time("2017-08-21T17:42:37Z"))), "
                + "totality \(((c3 - c2) * 10).rounded() / 10) s (146), magnitude \(local.magnitude)")
        #expect(local.type == .total && local.visible && local.obscuration == 1)
        #expect(abs(local.c1 - Self.time("2017-08-21T16:22:15Z")) < 60 && abs(c2 - Self.time("2017-08-21T17:42:37Z")) < 60)
        // Whole minutes, truncated or rounded: the instant lies within the minute or half a minute before it.
        #expect(c3 > Self.time("2017-08-21T17:44:30Z") && c3 < Self.time("2017-08-21T17:46:00Z"), "C3 \(Self.gap(c3, Self.time("2017-08-21T17:45:00Z")))")
        #expect(
            local.c4 > Self.time("2017-08-21T19:08:30Z") && local.c4 < Self.time("2017-08-21T19:10:00Z"),
            "C4 \(Self.gap(local.c4, Self.time("2017-08-21T19:09:00Z")))")
        #expect(abs(c3 - c2 - 146) < 10, "totality \(c3 - c2) s")
    }

    struct GreatestPoint {
        var date: String, latitude: Double, longitude: Double, greatest: String, duration: Double, magnitude: Double
    }

    /// The point of greatest eclipse as NASA's Five Millennium Canon gives it (coordinates to
    /// 0.1°, central duration to the second; https://eclipse.gsfc.nasa.gov/SEcat5/SE2001-2100.html,
    /// repeated in Wikipedia's articles on both eclipses): 2017-08-21 at 37.0°N 87.7°W, 2 min 40 s,
    /// magnitude 1.0306 (36.97°N 87.67°W in NASA's 2017 maps); 2027-08-02 near Luxor at 25.5°N
    /// 33.2°E, 6 min 23 s, magnitude 1.0790. There the local maximum is greatest eclipse.
    static let greatestPoints = [
        GreatestPoint(date: "2017-08-21T18:25:30Z", latitude: 36.97, longitude: -87.67, greatest: "2017-08-21T18:25:30Z", duration: 160, magnitude: 1.0306),
        GreatestPoint(date: "2027-08-02T10:06:34Z", latitude: 25.5, longitude: 33.2, greatest: "2027-08-02T10:06:34Z", duration: 383, magnitude: 1.0790)
    ]

    @Test func totalityAtThePointOfGreatestEclipse() throws {
        for p in Self.greatestPoints {
            let eclipse = try #require(Self.eclipse(.solar, near: p.date))
            let local = try #require(EclipseLocal.solar(eclipse, latitude: p.latitude, longitude: p.longitude))
            let c2 = try #require(local.c2, "\(p.date)"), c3 = try #require(local.c3, "\(p.date)")
            print(
                "\(p.date.prefix(10)) at the point of greatest eclipse: maximum \(Self.gap(local.maximum, Self.time(p.greatest))), "
                    + "totality \(((c3 - c2) * 10).rounded() / 10) s (\(p.duration)), magnitude \(local.magnitude) (\(p.magnitude))")
            #expect(local.type == .total && local.visible && local.obscuration == 1)
            #expect(abs(local.maximum - Self.time(p.greatest)) < 30, "\(p.date) maximum \(Self.gap(local.maximum, Self.time(p.greatest)))")
            #expect(abs(c3 - c2 - p.duration) < 3, "\(p.date) totality \(c3 - c2) s")
            #expect(abs(local.magnitude - p.magnitude) < 0.003, "\(p.date) magnitude \(local.magnitude)")
        }
        // Sydney is outside the penumbra's path in 2017 (NASA's map: North and northern South America,
        // western Europe and Africa at sunset).
        let american = try #require(Self.eclipse(.solar, near: "2017-08-21T18:25:30Z"))
        #expect(EclipseLocal.solar(american, latitude: -33.87, longitude: 151.21) == nil)
    }

    /// 2026-08-12 in Spain, near sunset: Spain's Instituto Geográfico Nacional gives Burgos 104 s
    /// of totality and Oviedo about 1 min 48 s, the longest of the provincial capitals (its
    /// figures as reported at https://particle.news, "Spain releases city-by-city timings" and
    /// "Spain sets eclipse plans"); the cities' coordinates: Burgos 42°20.6'N 3°41.8'W, Oviedo
    /// 43°21.7'N 5°51.0'W.
    @Test func totalityInSpainIn2026() throws {
        let eclipse = try #require(Self.eclipse(.solar, near: "2026-08-12T17:45:51Z"))
        for (city, latitude, longitude, duration) in [("Burgos", 42.3439, -3.6969, 104.0), ("Oviedo", 43.3614, -5.8494, 108.0)] {
            let local = try #require(EclipseLocal.solar(eclipse, latitude: latitude, longitude: longitude), "\(city)")
            let c2 = try #require(local.c2, "\(city)"), c3 = try #require(local.c3, "\(city)")
            print("2026-08-12 at \(city): totality \(((c3 - c2) * 10).rounded() / 10) s (\(duration)), Sun at \(local.sunAltitudeAtMaximum)°")
            #expect(local.type == .total && local.visible && abs(c3 - c2 - duration) < 5, "\(city): \(c3 - c2) s")
            // "Totality will happen in a very low altitude (less than 13° throughout Spain)":
            // https://eclipse262728.com/en/eclipse-2026-2/
            #expect(local.sunAltitudeAtMaximum > 0 && local.sunAltitudeAtMaximum < 13, "\(city) Sun at \(local.sunAltitudeAtMaximum)°")
        }
    }

    /// The total lunar eclipse of 2022-11-08: NASA's contact times as quoted by
    /// http://moonblink.info/Eclipse/eclipse/2022_11_08 (P1 08:02:17, U1 09:09:12, U2 10:16:39,
    /// greatest 10:59:09, U3 11:41:37, U4 12:49:03, P4 13:56:08 UT). Winnipeg sees it (the
    /// Manitoba Museum: the Moon sets at 7:44 am CST, just before leaving the umbra); Europe is not
    /// among the regions that see it (EarthSky: Asia, Australia, the Pacific and the Americas).
    @Test func lunarEclipseOf2022ContactsAndVisibility() throws {
        let eclipse = try #require(Self.eclipse(.lunar, near: "2022-11-08T10:59:09Z"))
        let winnipeg = EclipseLocal.lunar(eclipse, latitude: 49.9, longitude: -97.14)
        let c = winnipeg.contacts
        let published: [(String, Double?, String)] = [
            ("P1", c.p1, "08:02:17"), ("U1", c.u1, "09:09:12"), ("U2", c.u2, "10:16:39"), ("greatest", c.greatest, "10:59:09"),
            ("U3", c.u3, "11:41:37"), ("U4", c.u4, "12:49:03"), ("P4", c.p4, "13:56:08")
        ]
        var report: [String] = []
        for (name, ours, theirs) in published {
            let reference = Self.time("2022-11-08T" + theirs + "Z")
            report.append("\(name) \(Self.gap(ours, reference))")
            #expect(ours.map { abs($0 - reference) < 60 } == true, "\(name): \(Self.gap(ours, reference))")
        }
        print("2022-11-08 lunar contacts: " + report.joined(separator: ", "))
        #expect(eclipse.type == .total && winnipeg.visible)
        #expect(!EclipseLocal.lunar(eclipse, latitude: 52.52, longitude: 13.40).visible, "Berlin: the Moon has set")
    }

    @Test func obscurationOfTwoDiscs() {
        #expect(EclipseLocal.obscuration(sunRadius: 1, moonRadius: 1, separation: 2.5) == 0)
        #expect(EclipseLocal.obscuration(sunRadius: 1, moonRadius: 1.05, separation: 0.01) == 1)
        #expect(abs(EclipseLocal.obscuration(sunRadius: 1, moonRadius: 0.9, separation: 0.05) - 0.81) < 1e-12)
        // Two equal discs with centres one radius apart overlap by 2π/3 - √3/2 of π r².
        let lens = (2 * Double.pi / 3 - 3.0.squareRoot() / 2) / Double.pi
        #expect(abs(EclipseLocal.obscuration(sunRadius: 1, moonRadius: 1, separation: 1) - lens) < 1e-12)
    }
}
