import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// The planets against DE421 (Tests/Domain/Vectors/planets_de421.csv, written by
/// scripts/planet-reference.py from JPL's coefficients) and Meeus' worked examples.
@Suite struct SkyPlanetTests {
    static let vectors: String = {
        var path = #filePath
        path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        return path + "/Vectors/"
    }()

    /// The angle between two directions, arcminutes.
    static func separation(_ ra1: Double, _ dec1: Double, _ ra2: Double, _ dec2: Double) -> Double {
        let a1 = Angle.radians(ra1), d1 = Angle.radians(dec1), a2 = Angle.radians(ra2), d2 = Angle.radians(dec2)
        let c = sin(d1) * sin(d2) + cos(d1) * cos(d2) * cos(a1 - a2)
        return Angle.degrees(acos(min(1, c))) * 60
    }

    @Test func everyPlanetIsWithinAnArcminuteOfDE421() throws {
        let text = try String(contentsOfFile: Self.vectors + "planets_de421.csv")
        var worst: [Planet: Double] = [:]
        var count = 0
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let f = line.split(separator: ",")
            guard f.count == 4, let planet = Planet(rawValue: String(f[0])), let jd = Double(f[1]), let ra = Double(f[2]), let dec = Double(f[3]) else {
                continue
            }
            let ours = PlanetPosition.of(planet, julianEphemerisDay: jd)
            worst[planet] = max(worst[planet] ?? 0, Self.separation(ours.rightAscension, ours.declination, ra, dec))
            count += 1
        }
        print(
            "planets against DE421 (\(count) positions 1900-2100), worst in arcseconds: "
                + Planet.allCases.map { "\($0.name) \(((worst[$0] ?? .nan) * 600).rounded() / 10)" }.joined(separator: ", "))
        #expect(count == 210)
        for planet in Planet.allCases { #expect((worst[planet] ?? 99) < 1, "\(planet.name)") }
    }

    /// Meeus, examples 33.a and 41.a: Venus on 1992 December 20, 0h TD (apparent place,
    /// distance 0.910947 AU, 64.7% lit).
    @Test func matchesMeeusVenusExample() {
        let venus = PlanetPosition.of(.venus, julianEphemerisDay: 2_448_976.5)
        #expect(Self.separation(venus.rightAscension, venus.declination, 316.172_725, -18.888_011) < 0.02)
        #expect(abs(venus.distance - 0.910_947) < 0.000_01, "\(venus.distance)")
        #expect(abs(venus.illuminated - 0.647) < 0.002, "\(venus.illuminated)")
        // The Astronomical Almanac's formula for Meeus' r 0.724604, delta 0.910947, i 72.96°:
        // -4.40 + 5 log10(r delta) + 0.0009 i + 0.000239 i^2 - 0.00000065 i^3 = -4.217.
        #expect(abs(venus.phaseAngle - 72.96) < 0.01 && abs(venus.magnitude - -4.217) < 0.005, "\(venus.magnitude)")
    }

    @Test func riseTransitAndSetComeInOrder() throws {
        let day = CivilTime(year: 2026, month: 3, day: 1).unixSeconds
        let jupiter = PlanetPosition.events(.jupiter, from: day, to: day + 86_400, latitude: 47, longitude: 8)
        let transit = try #require(jupiter.transit)
        let position = PlanetPosition.of(.jupiter, at: transit)
        let altitude = position.horizontal(unixTime: transit, latitude: 47, longitude: 8).altitude
        #expect(abs(altitude - (90 - 47 + position.declination)) < 0.1, "at transit the altitude is 90 - latitude + declination")
        if let rise = jupiter.rise, let set = jupiter.set, rise < transit { #expect(set > transit || set < rise) }
    }
}
