import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneStorage

/// How `lodestone departures` fares with a national timetable: a synthetic feed of 10,000
/// stops and 1,000,000 stop times imported by `lodestone timetable import` run as a user runs
/// it (wall time, and the peak resident memory of that process alone), then cold answers as the command gives them, each a fresh `TimetableStore.load()` and a
/// query (best of 5 runs, milliseconds): the departures from the busiest stop, from a stop
/// found by name, and from the stop nearest a position; and once from the feed alone, as an
/// import by an older version without `index.bin` is read. Callgrind counts the instructions
/// of one cold busy-stop answer: wall time on a shared machine varies, that count does not.
public enum TimetableBench {
    public struct Result: Sendable {
        public var stops: Int
        public var trips: Int
        public var stopTimes: Int
        public var importMilliseconds: Double
        /// The import's peak resident memory (its process's ru_maxrss).
        public var importPeakKilobytes: Int
        public var indexBytes: Int
        public var busyStopMilliseconds: Double
        public var searchMilliseconds: Double
        public var nearestMilliseconds: Double
        /// The busy stop's answer without the index (the CSV feed parsed), one run.
        public var feedMilliseconds: Double
        /// The calls at the busy stop, and the departures its answer gave.
        public var busyStopCalls: Int
        public var departures: Int
        /// Instructions of one cold busy-stop answer (load and query), counted by callgrind;
        /// nil with a note when it could not be counted (valgrind missing).
        public var busyStopInstructions: Double?
        public var instructionsNote: String?
    }

    /// `executable`: the lodestone that imports (this one, by default).
    public static func run(feed: SyntheticFeed = SyntheticFeed(), executable: String = "/proc/self/exe") -> Result? {
        let folder = "/tmp/lodestone-timetable-bench-\(getpid())", data = folder + "-data"
        removeTree(folder)
        removeTree(data)
        defer { removeTree(folder); removeTree(data) }
        guard feed.write(to: folder) else { return nil }

        let clock = SystemMonotonicClock()
        let importStart = clock.now()
        guard let imported = measureProgram([executable, "timetable", "import", folder, "--data-dir", data]), imported.status == 0 else { return nil }
        let importMilliseconds = Double(clock.now() - importStart) / 1e6
        let store = TimetableStore(dataDirectory: data)
        guard let timetable = try? store.load() else { return nil }
        let busyStopCalls = timetable.calls(at: 0).count
        var indexStatus = stat()
        guard stat(store.indexPath, &indexStatus) == 0 else { return nil }
        let indexBytes = Int(indexStatus.st_size)

        let time = SyntheticFeed.queryTime
        func best(_ body: () -> Int?) -> (Double, Int)? {
            var fastest = Double.infinity, found = 0
            for _ in 0..<5 {
                let start = clock.now()
                guard let count = body() else { return nil }
                found = count
                fastest = min(fastest, Double(clock.now() - start) / 1e6)
            }
            return (fastest, found)
        }
        // Each a cold answer: the store read afresh, as each `lodestone departures` does.
        func answer(_ choose: (Timetable) -> Int?) -> Int? {
            guard let t = try? TimetableStore(dataDirectory: data).load(), let stop = choose(t) else { return nil }
            return t.departures(from: stop, after: time, count: 5).count
        }
        guard let busy = best({ coldAnswer(dataDirectory: data) }),
            let search = best({ answer { $0.stops(matching: feed.searchWords).first } }),
            let nearest = best({ answer { SyntheticFeed.nearest(to: feed.searchPosition, in: $0) } })
        else { return nil }

        // The busy stop's cold answer under callgrind, collection on in `coldAnswer` alone.
        let (instructions, note) = Callgrind.count(
            kernel: "timetable-answer", functions: ["*Timetable*10coldAnswer*"], count: 1, arguments: ["--data-dir", data])

        // The same answer from the feed alone: the index removed, as an older import has none.
        guard unlink(store.indexPath) == 0 else { return nil }
        let feedStart = clock.now()
        guard answer({ $0.stops(matching: SyntheticFeed.busyStopID).first }) != nil else { return nil }
        let feedMilliseconds = Double(clock.now() - feedStart) / 1e6

        return Result(
            stops: timetable.stops.count, trips: timetable.trips.count, stopTimes: feed.stopTimes,
            importMilliseconds: importMilliseconds, importPeakKilobytes: imported.peakKilobytes, indexBytes: indexBytes,
            busyStopMilliseconds: busy.0, searchMilliseconds: search.0, nearestMilliseconds: nearest.0,
            feedMilliseconds: feedMilliseconds, busyStopCalls: busyStopCalls, departures: busy.1,
            busyStopInstructions: instructions?.first, instructionsNote: note)
    }

    /// One cold answer at the busiest stop, as `lodestone departures` gives it: the store read
    /// afresh from `dataDirectory`, then the next five departures; how many it gave. Never
    /// inlined: callgrind counts by this function's symbol.
    @inline(never)
    public static func coldAnswer(dataDirectory: String) -> Int? {
        guard let t = try? TimetableStore(dataDirectory: dataDirectory).load(), let stop = t.stops(matching: SyntheticFeed.busyStopID).first else {
            return nil
        }
        return t.departures(from: stop, after: SyntheticFeed.queryTime, count: 5).count
    }

    /// `answers` cold answers from a data directory the bench imported, for callgrind.
    public static func kernel(answers: Int, dataDirectory: String) -> Int {
        var given = 0
        for _ in 0..<answers { given += coldAnswer(dataDirectory: dataDirectory) ?? 0 }
        return given
    }

}

/// A GTFS feed made up with a national feed's shape: a hub ("Central Station", stop 0) that
/// every route passes, routes of `stopsPerTrip` stops, 50 trips a route from 04:30 to past
/// midnight, weekday and weekend services with holiday exceptions, and an extra service that
/// runs only on the dates `calendar_dates.txt` adds.
public struct SyntheticFeed: Sendable {
    public var stops: Int
    public var stopTimes: Int
    public var stopsPerTrip: Int
    public static let tripsPerRoute = 50
    public static let busyStopID = "S0"
    /// Monday 2026-03-16, 07:00 in Zurich: inside the calendar, a weekday morning.
    public static let queryTime = CivilTime(year: 2026, month: 3, day: 16, hour: 6).unixSeconds

    public init(stops: Int = 10_000, stopTimes: Int = 1_000_000, stopsPerTrip: Int = 50) {
        self.stops = max(stops, 2)
        self.stopTimes = stopTimes
        self.stopsPerTrip = max(min(stopsPerTrip, self.stops), 2)
    }

    public var trips: Int { stopTimes / stopsPerTrip }
    public var routes: Int { max(trips / Self.tripsPerRoute, 1) }

    /// Words of one stop's name (not the hub's), for a search.
    public var searchWords: String { "\(Self.streets[(stops * 2 / 3) % Self.streets.count]) \(stops * 2 / 3)" }
    /// Beside that stop.
    public var searchPosition: (latitude: Double, longitude: Double) {
        let p = position(stops * 2 / 3)
        return (p.latitude + 0.001, p.longitude - 0.001)
    }

    static let streets = ["Alder Lane", "Mill Road", "Harbour Quay", "Church Square", "Station Road", "Market Street", "Lake Promenade", "School Lane"]

    func name(_ stop: Int) -> String { stop == 0 ? "Central Station" : "\(Self.streets[stop % Self.streets.count]) \(stop)" }

    /// A grid of about a kilometre between stops, 100 stops wide.
    func position(_ stop: Int) -> (latitude: Double, longitude: Double) {
        (46.0 + Double(stop / 100) * 0.01, 7.0 + Double(stop % 100) * 0.013)
    }

    /// The stop a route calls at in position `k`: the hub in the middle, the others spread
    /// over all stops so each is served by a few routes.
    func stop(route: Int, at k: Int) -> Int {
        let middle = stopsPerTrip / 2
        if k == middle { return 0 }
        let slot = route * (stopsPerTrip - 1) + (k < middle ? k : k - 1)
        return 1 + slot % (stops - 1)
    }

    /// Writes the feed's files into `folder` (made when missing); false when it cannot.
    public func write(to folder: String) -> Bool {
        guard makeDirectories(folder) else { return false }
        var files: [(String, [UInt8])] = []
        files.append(("agency.txt", Array("agency_id,agency_name,agency_url,agency_timezone\nNAT,National Transit,https://example.org,Europe/Zurich\n".utf8)))
        var text = "stop_id,stop_name,stop_lat,stop_lon\n"
        for stop in 0..<stops {
            let p = position(stop)
            text += "S\(stop),\(name(stop)),\(fixed(p.latitude, 5)),\(fixed(p.longitude, 5))\n"
        }
        files.append(("stops.txt", Array(text.utf8)))
        text = "route_id,route_short_name,route_long_name,route_type\n"
        for route in 0..<routes { text += "R\(route),\(route + 1),Line \(route + 1),3\n" }
        files.append(("routes.txt", Array(text.utf8)))

        text = "route_id,service_id,trip_id,trip_headsign\n"
        var times: [UInt8] = Array("trip_id,arrival_time,departure_time,stop_id,stop_sequence\n".utf8)
        times.reserveCapacity(stopTimes * 40)
        for trip in 0..<trips {
            let route = trip / Self.tripsPerRoute, j = trip % Self.tripsPerRoute
            // Mostly weekday trips, every fifth a weekend one, one a route on the extra dates only.
            let service = j == 12 ? "EX" : j % 5 == 4 ? "WE" : "WD"
            text += "R\(route),\(service),T\(trip),\(name(stop(route: route, at: stopsPerTrip - 1)))\n"
            // From 04:30, every 24 minutes and staggered by route: the last ones run past 24:00.
            let start = 4 * 3600 + 1800 + j * 24 * 60 + (route % 24) * 60
            for k in 0..<stopsPerTrip {
                let clock = Self.clock(start + k * 120)
                times += Array("T\(trip),\(clock),\(clock),S\(stop(route: route, at: k)),\(k + 1)\n".utf8)
            }
        }
        files.append(("trips.txt", Array(text.utf8)))
        files.append(("stop_times.txt", times))
        files.append(
            (
                "calendar.txt",
                Array(
                    ("service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                        + "WD,1,1,1,1,1,0,0,20260101,20261231\nWE,0,0,0,0,0,1,1,20260101,20261231\n").utf8)
            ))
        // Holidays: the weekday service off and the weekend one on; the extra service on a few Saturdays.
        text = "service_id,date,exception_type\n"
        for date in [20_260_403, 20_260_406, 20_260_514, 20_260_525, 20_261_225] { text += "WD,\(date),2\nWE,\(date),1\n" }
        for date in [20_260_321, 20_260_620, 20_260_801, 20_260_912] { text += "EX,\(date),1\n" }
        files.append(("calendar_dates.txt", Array(text.utf8)))
        for (name, bytes) in files where !writeFileAtomically(folder + "/" + name, bytes) { return false }
        return true
    }

    /// GTFS's H:MM:SS, hours past 24 for trips past midnight.
    static func clock(_ seconds: Int) -> String {
        "\(zeroPadded(seconds / 3600, 2)):\(zeroPadded(seconds / 60 % 60, 2)):\(zeroPadded(seconds % 60, 2))"
    }

    /// The stop nearest a position, as `lodestone departures --lat --lon` finds it.
    public static func nearest(to here: (latitude: Double, longitude: Double), in t: Timetable) -> Int? {
        t.stops.indices.map { index in
            let place = t.position(of: index)
            return (
                index, Geodesy.inverse(latitude1: here.latitude, longitude1: here.longitude, latitude2: place.latitude, longitude2: place.longitude).distance
            )
        }.min { $0.1 < $1.1 }?.0
    }
}
