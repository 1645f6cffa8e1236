import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
@testable import LodestoneRuntime
import Testing
@testable import LodestoneServices
@testable import LodestoneStorage

/// The nearest stop as a client reads it: the socket's (and the web's) DEPARTURES for the
/// nearest stop names the closest one with service in the next 24 hours, and where there is
/// none within `transit.nearestWithinKm` the answer says so and points to the search; the
/// display's departures page says the same.
@Suite struct NearestStopServiceTests {
    // The lake of NearestStopTests (the domain's test target is not this one's).
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

    static func service(_ name: String) throws -> (TransitService, String) {
        let data = "/tmp/lodestone-nearest-\(name)-\(getpid())"
        removeTree(data)
        #expect(makeDirectories(data) && TimetableStore(dataDirectory: data).save(Self.timetable()))
        return (try #require(TransitService(dataDirectory: data)), data)
    }

    static func at(_ latitude: Double, _ longitude: Double) -> NavigationState {
        var state = NavigationState()
        (state.fix.mode, state.fix.latitude, state.fix.longitude) = (.threeD, latitude, longitude)
        return state
    }

    @Test func theAnswerNamesTheStopWithService() throws {
        let (transit, data) = try Self.service("served")
        defer { removeTree(data) }
        let friday = CivilTime(year: 2026, month: 7, day: 24, hour: 6).unixSeconds
        let here = Self.at(Self.here.latitude, Self.here.longitude)
        let line = GPSDReports.line(transit.handle(DeparturesRequest(stop: "nearest"), state: here, time: friday))
        let answer = try JSONValue.parse(line)
        #expect(answer["class"]?.stringValue == "DEPARTURES" && answer["stop"]?["id"]?.stringValue == "IW", "not the old pier 100 m off: \(line)")
        #expect(answer["departures"]?.arrayValue?.first?["time"]?.stringValue == "2026-07-24T09:00:00+02:00", "\(line)")
        // Without a favourite, what the device shows by itself is the same stop.
        let shown = try JSONValue.parse(GPSDReports.line(transit.handle(DeparturesRequest(), state: here, time: friday)))
        #expect(shown["stop"]?["id"]?.stringValue == "IW")
    }

    @Test func noStopWithServiceNearbySaysSoAndOffersTheSearch() throws {
        let (transit, data) = try Self.service("none")
        defer { removeTree(data) }
        let saturday = CivilTime(year: 2026, month: 7, day: 25, hour: 6).unixSeconds
        let here = Self.at(Self.here.latitude, Self.here.longitude)
        let line = GPSDReports.line(transit.handle(DeparturesRequest(stop: "nearest"), state: here, time: saturday))
        let answer = try JSONValue.parse(line)
        let message = answer["message"]?.stringValue ?? ""
        #expect(answer["class"]?.stringValue == "ERROR" && message.contains("no stop with service") && message.contains("20 km"), "\(line)")
        #expect(message.contains("search for a stop"), "\(line)")
        // A setting of 100 km reaches the daily boat.
        transit.nearestWithin = 100_000
        let wider = try JSONValue.parse(GPSDReports.line(transit.handle(DeparturesRequest(stop: "nearest"), state: here, time: saturday)))
        #expect(wider["stop"]?["id"]?.stringValue == "LU", "\(wider)")
        // The display's page says it in words, with where to search.
        var model = DisplayModel()
        var none = DisplayModel.DeparturesPanel(stop: "")
        none.noServiceWithin = 20_000
        model.departures = none
        let page = DisplayPage.departures.draw(model, columns: 80, rows: 24).text
        #expect(page.contains("No stop with service within 20") && page.contains("search"), "\(page)")
        #expect(DisplayPage.departures.draw(model, columns: 21, rows: 8).text.contains("NO STOP NEARBY"))
    }
}
