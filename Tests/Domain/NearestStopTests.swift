import LodestoneCore
import LodestoneDomain
import Testing

/// The nearest stop is the closest with a departure in the next 24 hours, within the distance
/// set (20 km by default): a closer stop with no boat today, or one beyond the distance, is not it.
@Suite struct NearestStopTests {
    /// Around Interlaken: a pier 100 m off whose season ended in June, one 1.5 km off with a
    /// weekday boat at 09:00, and a town about 50 km off with a boat every day at 10:00.
    static func timetable() -> Timetable {
        var t = Timetable()
        t.stops = [
            Timetable.Stop(id: "OLD", name: "Old Pier", latitude: 46.6839, longitude: 7.851, timeZone: "Europe/Zurich"),
            Timetable.Stop(id: "IW", name: "Interlaken West", latitude: 46.6965, longitude: 7.851, timeZone: "Europe/Zurich"),
            Timetable.Stop(id: "LU", name: "Luzern", latitude: 47.05, longitude: 8.31, timeZone: "Europe/Zurich")
        ]
        t.routes = [Timetable.Route(id: "R", shortName: "Lake", longName: "", type: 4)]
        t.trips = [
            Timetable.Trip(id: "SUMMER", route: 0, service: "JUNE", headsign: "Thun"),
            Timetable.Trip(id: "WEEKDAY", route: 0, service: "WK", headsign: "Thun"),
            Timetable.Trip(id: "DAILY", route: 0, service: "ALL", headsign: "Flüelen")
        ]
        t.calls = [
            [Timetable.Call(trip: 0, seconds: 9 * 3600)],
            [Timetable.Call(trip: 1, seconds: 9 * 3600)],
            [Timetable.Call(trip: 2, seconds: 10 * 3600)]
        ]
        t.calendar.weeks["JUNE"] = ServiceCalendar.Week(days: [true, true, true, true, true, true, true], start: 20_260_601, end: 20_260_630)
        t.calendar.weeks["WK"] = ServiceCalendar.Week(days: [true, true, true, true, true, false, false], start: 20_260_601, end: 20_260_930)
        t.calendar.weeks["ALL"] = ServiceCalendar.Week(days: [true, true, true, true, true, true, true], start: 20_260_601, end: 20_260_930)
        return t
    }

    /// Standing on the old pier.
    static let here = (latitude: 46.6830, longitude: 7.851)

    /// 08:00 in Zurich on a Friday in July: the old pier (100 m) has no boat any more, the
    /// weekday pier (1.5 km) has one at 09:00. Thursday at 22:00: tomorrow morning's boat is
    /// within the 24 hours.
    @Test func theClosestWithServiceToday() throws {
        let friday = CivilTime(year: 2026, month: 7, day: 24, hour: 6).unixSeconds
        let found = try #require(NearestStop.find(in: Self.timetable(), latitude: Self.here.latitude, longitude: Self.here.longitude, time: friday))
        #expect(found.index == 1, "\(found)")
        // Independently: 0.0135° of latitude is about 1.5 km, due north.
        #expect(abs(found.distance - 1_501) < 5 && (found.bearing < 1 || found.bearing > 359), "\(found)")
        let thursdayNight = CivilTime(year: 2026, month: 7, day: 23, hour: 20).unixSeconds
        #expect(NearestStop.find(in: Self.timetable(), latitude: Self.here.latitude, longitude: Self.here.longitude, time: thursdayNight)?.index == 1)
    }

    /// Saturday: the weekday pier's next boat is Monday's, past the 24 hours; the daily boat
    /// leaves about 50 km away, beyond the 20 km: no stop with service nearby. Within 100 km, it is that one.
    @Test func noneWithinTheDistance() throws {
        let saturday = CivilTime(year: 2026, month: 7, day: 25, hour: 6).unixSeconds
        let timetable = Self.timetable()
        #expect(NearestStop.find(in: timetable, latitude: Self.here.latitude, longitude: Self.here.longitude, time: saturday) == nil)
        let far = try #require(NearestStop.find(in: timetable, latitude: Self.here.latitude, longitude: Self.here.longitude, time: saturday, within: 100_000))
        #expect(far.index == 2 && far.distance > 20_000, "\(far)")
        // At sea, hundreds of kilometres from any stop: none.
        #expect(NearestStop.find(in: timetable, latitude: 43.5, longitude: 7.2, time: saturday) == nil)
        #expect(NearestStop.find(in: timetable, latitude: .nan, longitude: 7.2, time: saturday) == nil)
    }
}
