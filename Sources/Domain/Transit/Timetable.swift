import LodestoneCore

/// A transit timetable as GTFS describes it, kept to what departures need: stops, routes,
/// trips with their service, the departure times at each stop, and the service calendars.
public struct Timetable: Sendable {
    public struct Stop: Sendable, Equatable {
        public var id: String, name: String
        public var latitude: Double, longitude: Double
        /// The stop's own zone, else the agency's.
        public var timeZone: String
        public init(id: String, name: String, latitude: Double, longitude: Double, timeZone: String) {
            (self.id, self.name, self.latitude, self.longitude, self.timeZone) = (id, name, latitude, longitude, timeZone)
        }
    }

    public struct Route: Sendable, Equatable {
        public var id: String, shortName: String, longName: String, type: Int
        public init(id: String, shortName: String, longName: String, type: Int) {
            (self.id, self.shortName, self.longName, self.type) = (id, shortName, longName, type)
        }
    }

    public struct Trip: Sendable, Equatable {
        public var id: String, route: Int, service: String, headsign: String
        /// The path it follows (an index into `shapes`), when the feed draws one.
        public var shape: Int?
        public init(id: String, route: Int, service: String, headsign: String, shape: Int? = nil) {
            (self.id, self.route, self.service, self.headsign, self.shape) = (id, route, service, headsign, shape)
        }
    }

    /// A path trips follow (`shapes.txt`): its points in order, each with its distance along
    /// the path (`shape_dist_traveled`, in the feed's own unit, the one its stop times use).
    public struct Shape: Sendable, Equatable {
        public struct Point: Sendable, Equatable {
            public var latitude: Double, longitude: Double, along: Double
            public init(latitude: Double, longitude: Double, along: Double) { (self.latitude, self.longitude, self.along) = (latitude, longitude, along) }
        }
        public var id: String
        public var points: [Point]
        public init(id: String, points: [Point]) { (self.id, self.points) = (id, points) }
    }

    /// A departure: the trip and the time, seconds after noon minus 12 h of its service day
    /// (GTFS's clock: it may pass 24:00 for a trip that runs past midnight).
    public struct Call: Sendable, Equatable {
        // 16 bytes a call (a national feed keeps a million): numbers as 32 bits, -1 for no stop,
        // NaN for no distance; whether people board in the trip number's sign bit.
        private var tripAndBoarding: Int32, time: Int32, nextStop: Int32
        private var distance: Float

        public var trip: Int {
            get { Int(tripAndBoarding & Int32.max) }
            set { tripAndBoarding = (tripAndBoarding & Int32.min) | (Int32(clamping: newValue) & Int32.max) }
        }
        /// Whether people board here: not at a trip's last call, nor where `pickup_type` is 1
        /// (an arrival, never a departure).
        public var departs: Bool {
            get { tripAndBoarding >= 0 }
            set { tripAndBoarding = newValue ? tripAndBoarding & Int32.max : tripAndBoarding | Int32.min }
        }
        /// How far along its trip's shape the call is (`shape_dist_traveled`), when the feed says.
        public var along: Double? {
            get { distance.isNaN ? nil : Double(distance) }
            set { distance = newValue.map { Float($0) } ?? .nan }
        }
        public var seconds: Int {
            get { Int(time) }
            set { time = Int32(clamping: newValue) }
        }
        /// The stop the trip calls at next (an index into `stops`), nil at its last call.
        public var next: Int? {
            get { nextStop >= 0 ? Int(nextStop) : nil }
            set { nextStop = newValue.map { Int32(clamping: $0) } ?? -1 }
        }

        public init(trip: Int, seconds: Int, next: Int? = nil, departs: Bool = true, along: Double? = nil) {
            (tripAndBoarding, time, nextStop) = (
                Int32(clamping: max(0, trip)) | (departs ? 0 : Int32.min), Int32(clamping: seconds), next.map { Int32(clamping: $0) } ?? -1
            )
            distance = along.map { Float($0) } ?? .nan
        }

        // Equal calls: the same fields (NaN, no distance, equals itself here).
        public static func == (a: Call, b: Call) -> Bool {
            a.tripAndBoarding == b.tripAndBoarding && a.time == b.time && a.nextStop == b.nextStop && a.distance.bitPattern == b.distance.bitPattern
        }
    }

    public var stops: TimetableRows<Stop> = []
    /// The agency's zone: GTFS times count in it, whatever zone a stop is in (a stop's own
    /// `stop_timezone` only says how to show them there; GTFS has every agency of a feed in
    /// one zone). Nil: each stop's zone.
    public var agencyZone: String?
    public var routes: TimetableRows<Route> = []
    public var trips: TimetableRows<Trip> = []
    public var shapes: [Shape] = []
    /// The calls at each stop (by index), in time order.
    public var calls: [[Call]] = []
    public var calendar = ServiceCalendar()
    /// The calls of a stop that `calls` does not hold, fetched when that stop is asked for: a
    /// stored national timetable keeps its million calls on disk and decodes one stop's.
    public var callSource: (@Sendable (Int) -> [Call])?
    /// What a store answers without making whole rows (a stop found by its id, a name alone,
    /// the trips' services as numbers); nil for a timetable held in memory. Asked only while
    /// the rows it answers for are still the stored ones (a change makes them held).
    package var lookups: (any TimetableLookups)?

    public init() {}

    /// The calls at stop `index`, in time order: from `calls`, else from the call source.
    public func calls(at index: Int) -> [Call] {
        if calls.indices.contains(index) { return calls[index] }
        return callSource?(index) ?? []
    }

    /// A departure as a person reads it.
    public struct Departure: Sendable, Equatable {
        public var time: Double
        public var route: String
        public var headsign: String
        public var trip: String
        /// The route's own id (marks may name it).
        public var routeID: String
        /// The next stop the trip calls at (an index into `stops`).
        public var next: Int? = nil
        /// The trip's shape (an index into `shapes`) and how far along it this call is.
        public var shape: Int? = nil, along: Double? = nil
        /// Whether people board here (false for an arrival, asked for with `arrivals`).
        public var departs = true
        /// The call it was made from: the trip's number and its GTFS time, to follow the trip.
        public var call: Call? = nil
    }

    /// The next `count` departures from stop `index` at or after UTC `time`, honouring the
    /// service calendars (and their exceptions), times past 24:00 and the stop's zone.
    /// Times are the agency's (`agencyZone`), shown in the stop's zone by the callers; a call
    /// where nobody boards (a trip's end, `pickup_type` 1) is no departure, unless `arrivals`
    /// asks for every call (where ships pass, not where people board).
    public func departures(from index: Int, after time: Double, count: Int, arrivals: Bool = false) -> [Departure] {
        guard count > 0, stops.indices.contains(index), let zone = try? TimeZoneRules(agencyZone ?? stops[index].timeZone) else { return [] }
        let stopCalls = calls(at: index)
        // A trip past midnight belongs to the service day before: look from yesterday on.
        let local = CivilTime(unixSeconds: time + Double(zone.offset(at: time)))
        let today = CivilTime.days(year: local.year, month: local.month, day: local.day)
        var running = ServiceDays(self, days: Array((today - 1)...(today + 7)))
        // The best `count` so far, earliest first (a tie after the ones found before it, as a
        // stable sort of all would have it): a busy stop's 20,000 calls make no Departure each.
        var kept: [(time: Double, call: Int)] = []
        kept.reserveCapacity(count + 1)
        var found = 0
        for (dayNumber, day) in running.days.enumerated() {
            let date = CivilTime.civil(fromDays: day)
            // GTFS times count from noon minus 12 h, which is midnight except across a DST change.
            let midnight = zone.midnight(year: date.year, month: date.month, day: date.day)
            let guess = midnight + 12 * 3600
            let noon = guess - Double(zone.offset(at: guess) - zone.offset(at: midnight))
            let base = noon - 12 * 3600
            for (number, call) in stopCalls.enumerated() where call.departs || arrivals {
                let at = base + Double(call.seconds)
                // Once `count` are kept, one no earlier than the last cannot be shown.
                guard at >= time, kept.count < count || at < (kept.last?.time ?? 0) else { continue }
                guard running.runs(trip: call.trip, onDay: dayNumber) else { continue }
                found += 1
                let place = kept.lastIndex { $0.time <= at }.map { $0 + 1 } ?? 0
                kept.insert((at, number), at: place)
                if kept.count > count { kept.removeLast() }
            }
            if found >= count && day >= today { break }
        }
        return kept.compactMap { departure(stopCalls[$0.call], at: $0.time) }
    }

    /// The departure a call makes at `time`, with the names a person reads; nil for a call
    /// naming a trip the timetable does not have.
    func departure(_ call: Call, at time: Double) -> Departure? {
        guard trips.indices.contains(call.trip) else { return nil }
        let trip = trips[call.trip]
        guard routes.indices.contains(trip.route) else { return nil }
        let route = routes[trip.route]
        return Departure(
            time: time, route: route.shortName.isEmpty ? route.longName : route.shortName, headsign: trip.headsign, trip: trip.id,
            routeID: route.id, next: call.next.flatMap { stops.indices.contains($0) ? $0 : nil },
            shape: trip.shape.flatMap { shapes.indices.contains($0) ? $0 : nil }, along: call.along, departs: call.departs, call: call)
    }

    /// The last day any service runs (YYYYMMDD): the latest end of a weekly calendar or date
    /// added; nil without calendars.
    public var validUntil: Int? {
        let weeks = calendar.weeks.values.map(\.end)
        let added = calendar.exceptions.values.flatMap { $0.filter(\.value).map(\.key) }
        return (weeks + added).max()
    }

    /// Stops whose name holds every word of `text` (any case, accents or none: "zurich" finds
    /// "Zürich"), or whose id is it.
    public func stops(matching text: String) -> [Int] {
        if let exact = stop(id: text) { return [exact] }
        let words = SearchText.folded(text).split(separator: " ")
        // Each name folded once, not once per word: a national feed has tens of thousands.
        return stops.indices.filter { index in
            let name = SearchText.folded(storedStops?.stopName(index) ?? stops[index].name)
            return words.allSatisfy { name.contains($0) }
        }
    }

    /// Where stop `index` is (its row's position, without its texts where a store keeps them).
    public func position(of index: Int) -> (latitude: Double, longitude: Double) {
        if let storedStops { return storedStops.stopPosition(index) }
        return (stops[index].latitude, stops[index].longitude)
    }

    /// The stop whose id is `id`.
    public func stop(id: String) -> Int? {
        if let storedStops { return storedStops.stopIndex(id: id) }
        return stops.firstIndex { $0.id == id }
    }

    /// The store's lookups for the stops, while the stops are the stored ones.
    private var storedStops: (any TimetableLookups)? { stops.isStored ? lookups : nil }
}

/// What a stored timetable answers from its bytes, faster than its rows would.
package protocol TimetableLookups: Sendable {
    func stopIndex(id: String) -> Int?
    func stopName(_ stop: Int) -> String
    func stopPosition(_ stop: Int) -> (latitude: Double, longitude: Double)
    /// The services' names, which `tripServices` numbers.
    var serviceNames: [String] { get }
    /// Each trip's service, a number into `serviceNames`; nil when the trips cannot be read.
    func tripServices() -> [Int32]?
}

/// Which services run on which days: `calendar.txt`'s weekly pattern between two dates, and
/// `calendar_dates.txt`'s exceptions (1 adds the service that day, 2 removes it).
public struct ServiceCalendar: Sendable {
    public struct Week: Sendable, Equatable {
        /// Monday first.
        public var days: [Bool]
        /// YYYYMMDD, inclusive.
        public var start: Int, end: Int
        public init(days: [Bool], start: Int, end: Int) { (self.days, self.start, self.end) = (days, start, end) }
    }

    public var weeks: [String: Week] = [:]
    /// Service and YYYYMMDD date -> added (true) or removed (false).
    public var exceptions: [String: [Int: Bool]] = [:]

    public init() {}

    /// Whether `service` runs on `date` (YYYYMMDD), a `weekday` (0 Monday ... 6 Sunday).
    public func runs(_ service: String, date: Int, weekday: Int) -> Bool {
        if let exception = exceptions[service]?[date] { return exception }
        guard let week = weeks[service], date >= week.start, date <= week.end, week.days.indices.contains(weekday) else { return false }
        return week.days[weekday]
    }
}
