import Glibc
import LodestoneCore
import LodestoneDomain
@testable import LodestoneRuntime
@testable import LodestoneStorage
import Testing

/// The wake at a spot when the feed draws the ship's path (`shapes.txt`): a ferry between two
/// piers 6 km apart that bows 1.5 km north on its way, and a spot 300 m beyond the bow. Along
/// the shape (by `shape_dist_traveled`, in metres or kilometres) the ship passes 300 m off;
/// without the distances its leg is the straight line, 1.8 km off. The figures are worked out
/// here from the geometry.
@Suite(.serialized) struct WakeShapeTests {
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180
    static let origin = (latitude: 47.30, longitude: 8.50)

    /// A point `east` and `north` metres from the west pier.
    static func place(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        (origin.latitude + north / metresPerDegree, origin.longitude + east / (cos(origin.latitude * .pi / 180) * metresPerDegree))
    }

    static func coordinates(_ p: (latitude: Double, longitude: Double)) -> String { fixed(p.latitude, 7) + "," + fixed(p.longitude, 7) }

    /// The feed: one boat at 10:00 from the west pier, at the east pier at 10:20 (its last
    /// call, an arrival), every day. `unit` is metres per unit of `shape_dist_traveled`; nil
    /// writes no distances.
    static func feed(_ name: String, unit: Double?) -> String? {
        let half = (3000.0 * 3000 + 1500 * 1500).squareRoot()
        func distance(_ metres: Double) -> String { unit.map { fixed(metres / $0, 4) } ?? "" }
        let points = [place(east: 0, north: 0), place(east: 3000, north: 1500), place(east: 6000, north: 0)]
        let changes = [
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nW,Weststeg,\(coordinates(points[0]))\nE,Oststeg,\(coordinates(points[2]))\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign,shape_id\nR1,D,BOW,Oststeg,S1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\n"
                + "BOW,10:00:00,10:00:00,W,1,\(distance(0))\nBOW,10:20:00,10:20:00,E,2,\(distance(2 * half))\n",
            "shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\n"
                + zip(points, [0, half, 2 * half]).enumerated().map { "S1,\(coordinates($0.element.0)),\($0.offset + 1),\(distance($0.element.1))\n" }.joined(),
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20271231\n",
            "calendar_dates.txt": "service_id,date,exception_type\n"
        ]
        return GTFSValidationTests.feed("wake-\(name)", changes)
    }

    static let date = (year: 2026, month: 7, day: 4)
    static let spot = place(east: 3000, north: 1800)
    /// 10:10 in Zurich, halfway in time: where a symmetric path puts the bow.
    static let halfway = CivilTime(year: 2026, month: 7, day: 4, hour: 8, minute: 10).unixSeconds

    static func wave(_ t: Timetable, radius: Double) throws -> WavesAnswer.Item? {
        let day = try #require(
            WavesAnswer.day(t, marks: [], place: .spot(latitude: spot.latitude, longitude: spot.longitude, radius: radius), date: date, now: 0))
        return day.items.first
    }

    @Test func alongTheShapeInMetresOrKilometres() throws {
        for unit in [1.0, 1000.0] {
            let folder = try #require(Self.feed("unit\(Int(unit))", unit: unit))
            defer { removeTree(folder) }
            let (t, summary) = try GTFSImport.read(folder)
            #expect(t.shapes.count == 1 && t.shapes.first?.points.count == 3 && t.trips.first?.shape == 0)
            #expect(summary.kept.contains { $0.table == "shapes" && $0.count == 1 }, "\(summary.kept)")
            // The ship runs 2 x 3354.1 m in 1200 s and passes the bow, 300 m from the spot, at 10:10.
            let speed = 2 * (3000.0 * 3000 + 1500 * 1500).squareRoot() / 1200
            let expected = Self.halfway + 300 / tan(19.47 * .pi / 180) / speed
            let wave = try #require(
                try Self.wave(t, radius: 1500), "unit \(unit): the trip's only leg ends at its last call, an arrival, and still makes a wake")
            #expect(
                abs((wave.distance ?? 0) - 300) < 3 && abs((wave.passes ?? 0) - Self.halfway) < 3 && abs(wave.time - expected) < 3,
                "unit \(unit): \(wave.distance ?? -1) m at \(wave.passes ?? 0), arrives \(wave.time) (expected \(expected))")
        }
    }

    @Test func withoutDistancesTheLegIsTheStraightLine() throws {
        let folder = try #require(Self.feed("straight", unit: nil))
        defer { removeTree(folder) }
        let (t, summary) = try GTFSImport.read(folder)
        #expect(t.shapes.first?.points.isEmpty == true && summary.skipped.contains { $0.contains("shape_dist_traveled") }, "\(summary.skipped)")
        #expect(try Self.wave(t, radius: 1500) == nil, "the straight line passes 1800 m off")
        let wave = try #require(try Self.wave(t, radius: 2000))
        let expected = Self.halfway + 1800 / tan(19.47 * .pi / 180) / (6000 / 1200)
        #expect(abs((wave.distance ?? 0) - 1800) < 3 && abs(wave.time - expected) < 3, "\(wave.distance ?? -1) m, arrives \(wave.time) (expected \(expected))")
    }

    /// Kept and read back, from the index and from the kept feed, the shape places the ship
    /// as the imported feed did.
    @Test func theKeptTimetableKeepsTheShape() throws {
        let folder = try #require(Self.feed("kept", unit: 1))
        let data = folder + "-data"
        defer { removeTree(folder); removeTree(data) }
        let imported = try GTFSImport.read(folder).0
        let store = TimetableStore(dataDirectory: data)
        #expect(makeDirectories(data) && store.save(imported))
        let (indexed, refusal) = try store.loadNotingRefusal()
        #expect(refusal == nil && indexed.shapes == imported.shapes && indexed.trips == imported.trips)
        let keptFeed = try GTFSImport.read(store.directory).0
        #expect(keptFeed.shapes.first?.points.count == 3 && keptFeed.trips.first?.shape == 0)
        let first = try #require(try Self.wave(imported, radius: 1500))
        for t in [indexed, keptFeed] {
            let wave = try #require(try Self.wave(t, radius: 1500))
            #expect(abs(wave.time - first.time) < 1 && abs((wave.distance ?? 0) - (first.distance ?? 0)) < 1)
        }
        // Any byte of the shapes' part of the index changed (the CRC-32 made to match): refused
        // or read, never a trap.
        let bytes = TimetableIndex.encode(imported)
        for at in TimetableIndex.headerSize..<bytes.count {
            var crafted = Array(bytes.dropFirst(TimetableIndex.headerSize))
            let offset = at - TimetableIndex.headerSize
            guard crafted.indices.contains(offset) else { continue }
            crafted[offset] ^= 0xA5
            guard let t = try? TimetableIndex.decode(crafted) else { continue }
            _ = try Self.wave(t, radius: 1500)
        }
    }

    @Test func aShapeOutOfRangeIsRefusedWithItsLine() throws {
        let trips = "route_id,service_id,trip_id,trip_headsign,shape_id\nR1,WK,T1,Thun,S1\nR1,WK,T2,Spiez (night),S1\n"
        try GTFSValidationTests.expectRefused(
            "shapepos", ["trips.txt": trips, "shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nS1,46.68,7.85,1\nS1,95,7.7,2\n"],
            place: "shapes.txt line 3", why: "is not one")
        try GTFSValidationTests.expectRefused(
            "shapeseq", ["trips.txt": trips, "shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nS1,46.68,7.85,-1\n"],
            place: "shapes.txt line 2", why: "shape_pt_sequence")
        try GTFSValidationTests.expectRefused(
            "shapedist",
            [
                "trips.txt": trips,
                "shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\nS1,46.68,7.85,1,nan\n"
            ],
            place: "shapes.txt line 2", why: "shape_dist_traveled")
        try GTFSValidationTests.expectRefused(
            "calldist", ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\nT1,08:30:00,08:30:00,IW,1,-4\n"],
            place: "stop_times.txt line 2", why: "shape_dist_traveled")
    }
}
