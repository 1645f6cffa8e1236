import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports

/// The sky page's reads beside the day's sky: the seasons, the eclipses and the Sun's path.
/// Each answers with what the command-line tool prints for the same request
/// (`lodestone seasons --json`, `lodestone eclipses --json`), made by the same code.
enum WebSkyReads {
    static func routes<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>) -> [String: (HTTPRequest) -> HTTPResponse] {
        [
            "/api/v1/seasons": { [unowned loop] request in seasons(loop, request) },
            "/api/v1/eclipses": { [unowned loop] request in eclipses(loop, request) },
            "/api/v1/sunpath": { [unowned loop] request in sunPath(loop, request) }
        ]
    }

    /// Where the sky is seen from: the `lat` and `lon` asked for (both, range-checked), else the
    /// device's place (the fix, the configured observer or the last fix) and which it is.
    static func place<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, _ request: HTTPRequest) -> Result<
        (latitude: Double, longitude: Double, source: String?), HTTPError
    > {
        if request.parameter("lat") != nil || request.parameter("lon") != nil {
            guard let lat = request.parameter("lat").flatMap(Double.init), (-90...90).contains(lat),
                let lon = request.parameter("lon").flatMap(Double.init), (-180...180).contains(lon)
            else {
                return .failure(HTTPError(.text(400, "lat and lon are degrees (-90..90, -180..180), both given")))
            }
            return .success((lat, lon, "asked"))
        }
        guard let observer = loop.context.services.sky?.place(loop.context.latest) else {
            return .failure(
                HTTPError(.json(GPSDReports.line(.error("no place for the sky yet: no GPS fix, and no observer in the configuration")), status: 422)))
        }
        return .success((observer.latitude, observer.longitude, observer.source.rawValue))
    }

    /// `?date=YYYY-MM-DD` (1900-2100), or today in the device's zone.
    static func date(_ request: HTTPRequest, name: String = "date", today: (year: Int, month: Int, day: Int)) -> Result<
        (year: Int, month: Int, day: Int), HTTPError
    > {
        guard let text = request.parameter(name) else { return .success(today) }
        guard let given = CivilTime.parseDate(text), (1900...2100).contains(given.year) else {
            return .failure(HTTPError(.text(400, "\(name) is YYYY-MM-DD, 1900-2100 (the years the sky's models are documented for)")))
        }
        return .success((given.year, given.month, given.day))
    }

    /// `?count=N` within `range`, or `standard`.
    static func count(_ request: HTTPRequest, in range: ClosedRange<Int>, standard: Int) -> Result<Int, HTTPError> {
        guard let text = request.parameter("count") else { return .success(standard) }
        guard let n = Int(text), range.contains(n) else {
            return .failure(HTTPError(.text(400, "count is a whole number from \(range.lowerBound) to \(range.upperBound)")))
        }
        return .success(n)
    }

    /// `GET /api/v1/seasons?count=N&from=YYYY-MM-DD`: `lodestone seasons --json --lat L` for the
    /// device's place (its hemisphere), from now or from the start of `from`.
    static func seasons<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, _ request: HTTPRequest) -> HTTPResponse {
        let zone = loop.context.services.localClock.zone, now = loop.context.utcNow()
        do throws(HTTPError) {
            let where_ = try place(loop, request).get()
            let count = try count(request, in: 1...400, standard: 4).get()
            var reference = now
            if request.parameter("from") != nil {
                let from = try date(request, name: "from", today: SkyAnswer.localDate(now, zone: zone)).get()
                reference = zone.midnight(year: from.year, month: from.month, day: from.day)
            }
            return .json(
                SkyAnswer.seasons(Seasons.upcoming(after: reference, count: count), zone: zone, reference: reference, northern: where_.latitude >= 0))
        } catch {
            return error.response
        }
    }

    /// `GET /api/v1/eclipses?count=N&from=YYYY-MM-DD`: `lodestone eclipses --json --lat L --lon L`
    /// at the device's place, from the start of `from` (default today) in the device's zone.
    static func eclipses<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, _ request: HTTPRequest) -> HTTPResponse {
        let zone = loop.context.services.localClock.zone, now = loop.context.utcNow()
        do throws(HTTPError) {
            let where_ = try place(loop, request).get()
            // At most 20 here (the tool allows 100): each one is worked out while the device waits.
            let count = try count(request, in: 1...20, standard: 4).get()
            let from = try date(request, name: "from", today: SkyAnswer.localDate(now, zone: zone)).get()
            let start = zone.midnight(year: from.year, month: from.month, day: from.day)
            let place = EclipseAnswer.Place(latitude: where_.latitude, longitude: where_.longitude, elevation: 0)
            return .json(EclipseAnswer.json(after: start, count: count, place: place, zone: zone))
        } catch {
            return error.response
        }
    }

    /// `GET /api/v1/sunpath?date=YYYY-MM-DD`: the Sun's altitude and azimuth through that day.
    static func sunPath<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, _ request: HTTPRequest) -> HTTPResponse {
        let zone = loop.context.services.localClock.zone, now = loop.context.utcNow()
        do throws(HTTPError) {
            let where_ = try place(loop, request).get()
            let day = try date(request, today: SkyAnswer.localDate(now, zone: zone)).get()
            return .json(SunPathAnswer.json(latitude: where_.latitude, longitude: where_.longitude, zone: zone, date: day))
        } catch {
            return error.response
        }
    }
}

/// A refused request's answer, carried as an error so each step can refuse with `try`.
struct HTTPError: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
