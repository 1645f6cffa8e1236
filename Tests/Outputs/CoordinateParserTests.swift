import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import Testing

/// A place typed or pasted in any of the three notations reads as the same place; anything
/// malformed or out of range is refused, never guessed.
@Suite struct CoordinateParserTests {
    func place(_ text: String) -> CoordinateParser.Place? { CoordinateParser.parse(text) }

    func near(_ found: CoordinateParser.Place?, _ latitude: Double, _ longitude: Double, within: Double = 1e-6) -> Bool {
        guard let found else { return false }
        return abs(found.latitude - latitude) <= within && abs(found.longitude - longitude) <= within
    }

    /// Written as people write them: the map apps' decimal pair, the receivers' and charts'
    /// degrees and minutes, the degrees, minutes and seconds of a guidebook, letters before
    /// or after, longitude first when the letters say so, primes from a phone's keyboard.
    /// Each notation, its latitude and longitude (minutes and seconds worked out by hand).
    static let written: [(String, Double, Double)] = [
        ("47.376887, 8.541694", 47.376887, 8.541694),
        ("47.376887 8.541694", 47.376887, 8.541694),
        ("-33.856784, 151.215297", -33.856784, 151.215297),
        ("-33.856784 151.215297", -33.856784, 151.215297),
        ("47.376887° N 8.541694° E", 47.376887, 8.541694),
        ("33.856784°S, 151.215297°E", -33.856784, 151.215297),
        ("N 47°22.6132' E 8°32.5016'", 47.376886666666664, 8.541693333333333),
        ("47°22.6132'N 8°32.5016'E", 47.376886666666664, 8.541693333333333),
        ("N47 22.6132 E8 32.5016", 47.376886666666664, 8.541693333333333),
        ("47°22'36.8\"N 8°32'30.1\"E", 47.37688888888889, 8.541694444444444),
        ("47°22′36.8″ N, 8°32′30.1″ E", 47.37688888888889, 8.541694444444444),
        ("47°22’36.8” N 8°32’30.1” O", 47.37688888888889, 8.541694444444444),
        ("E 8°32.5016' N 47°22.6132'", 47.376886666666664, 8.541693333333333),
        ("22°54'30\"S 43°11'47\"W", -22.90833333333333, -43.19638888888888),
        ("0, 180", 0, 180),
        ("-90, -180", -90, -180)
    ]

    @Test(arguments: written)
    func readsEveryNotation(_ text: String, _ latitude: Double, _ longitude: Double) {
        let found = place(text)
        #expect(near(found, latitude, longitude), "\(text): \(String(describing: found))")
    }

    /// What the device writes (the position page's three notations) reads back as the place it
    /// wrote, to the notation's own resolution, at places in every quarter of the globe.
    @Test func readsBackWhatTheDeviceWrites() {
        for (latitude, longitude) in [(47.376887, 8.541694), (-33.856784, 151.215297), (64.1466, -21.9426), (-54.8019, -68.303), (0.5, -0.25)] {
            let decimal = CoordinateText.decimal(latitude, latitude: true) + " " + CoordinateText.decimal(longitude, latitude: false)
            let ddm = CoordinateText.ddm(latitude, latitude: true) + " " + CoordinateText.ddm(longitude, latitude: false)
            let dms = CoordinateText.dms(latitude, latitude: true) + " " + CoordinateText.dms(longitude, latitude: false)
            #expect(near(place(decimal), latitude, longitude, within: 1e-6), "\(decimal)")
            #expect(near(place(ddm), latitude, longitude, within: 1e-5 / 60 * 10), "\(ddm)")
            #expect(near(place(dms), latitude, longitude, within: 0.1 / 3600), "\(dms)")
        }
    }

    /// Nothing half-read: out of range, minutes or seconds of 60, decimals before minutes, two
    /// signs, a word, one axis or three, letters in the wrong place, a mark with no figure.
    @Test(arguments: [
        "", "47.3", "91, 8", "47, 181", "47°60' N 8° E", "47°22'60\" N 8°E", "47.5°22' N 8° E", "--47, 8", "-47° S, 8° E",
        "Zurich", "47, 8, 9", "N 47, N 8", "47 N 8 N", "° 47, 8", "47,, 8", "1e5, 8", "nan, 8", "47; 8; 9", "N N 47, 8",
        String(repeating: "4", count: 300)
    ])
    func refusesWhatItCannotReadWhole(_ text: String) {
        #expect(place(text) == nil, "\(text) read as \(String(describing: place(text)))")
    }
}
