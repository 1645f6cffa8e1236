import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneRuntime
import LodestoneSettings
import LodestoneStorage

/// `lodestone waves`: the day's ferry waves at a stop or a spot on the shore, the best
/// sessions and how often the waves come, offline from the imported timetable.
enum WavesCommand {
    static let help = """
        Usage: lodestone waves (--stop NAME|ID | --spot LAT,LON [--radius M]) [--date YYYY-MM-DD] [--json] [--data-dir DIR]

        Every departure of that local date (default today) from the stop, or every ship passing
        within --radius metres (default 1500) of the spot, as a wave: its time (at a spot, when the
        wake arrives), route, headsign, trip, ship and how many waves it makes (from the marks in
        <data-dir>/timetable-marks.csv, "match,label,rating,waves" with waves 1 to 3; 1 without),
        its points (2 for 1 wave, 5 for 2, 10 for 3) and its light: day (the Sun's centre at or
        above -0.833°), twilight (down to -6°) or dark. Then the day's sunrise, sunset, civil dawn
        and dusk and daylight; the best sessions (from a wave to a later one, 60 to 120 minutes, no
        gap over 60 minutes and no wave in the dark; scored by their waves' points, a twilight
        wave a fifth; up to three that share no wave); and the frequency of the lit waves (count,
        mean gap, per local hour).

        At a spot each trip is placed between its consecutive calls, by time, along its shape in
        the feed (shapes.txt, by shape_dist_traveled) or else on the straight line between the
        stops; where it passes closest (distance d, at time t, speed v on that leg) the
        Kelvin wedge (half-angle 19.47°) reaches the shore at t + d / tan(19.47°) / v.

        --json prints {"place","date","zone","daylight","waves":[{"time","route","headsign","trip",
        "ship","waves","points","light","forecast"} (and "distance", "arrival" at a spot)],"sessions":[{"start",
        "end","waves","score"}],"frequency":{"count","meanGapMinutes","byHour"}}, times ISO-8601 with
        the zone's offset. The running device answers ?WAVES={"stop":..,"date":..} or
        {"spot":[lat,lon],"radius":M} with the same object (class WAVES).

        forecast is the Zambretti forecast {"letter","text","trend"} from the sea-level pressure
        'lodestone run' kept (history.bin; the running device uses its live one, with the wind's
        direction), for the waves in the 12 hours after it was made, else null.

        Examples:
          lodestone waves --stop "Zürich Bürkliplatz" --date 2026-07-04
          lodestone waves --spot 47.3405,8.5600 --radius 1200 --json
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["stop", "spot", "radius", "date", "data-dir"], flags: ["json"]), command: "waves")
        let directory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        let timetable: Timetable
        do { timetable = try TimetableStore(dataDirectory: directory).load() } catch {
            Log.error(error.description)
            return 1
        }
        let place: WavesAnswer.Place
        switch (options.values["stop"], options.values["spot"]) {
        case (let name?, nil):
            guard let index = timetable.stops(matching: name).first else {
                Log.error("no stop matches '\(name)' ('lodestone departures search WORDS' finds them)")
                return 1
            }
            place = .stop(index)
        case (nil, let text?):
            let parts = text.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 2, (-90...90).contains(parts[0]), (-180...180).contains(parts[1]) else {
                throw UsageError(message: "--spot takes LAT,LON in degrees (47.3405,8.5600), not '\(text)'")
            }
            place = .spot(latitude: parts[0], longitude: parts[1], radius: try options.number("radius", in: 10...20_000) ?? 1500)
        default:
            throw UsageError(message: "waves needs one place: --stop NAME|ID, or --spot LAT,LON")
        }
        if options.values["radius"] != nil, options.values["spot"] == nil { throw UsageError(message: "--radius goes with --spot") }
        let (marks, problems) = TransitPreferences(dataDirectory: directory).marks()
        for problem in problems { Log.warning(problem) }
        let date = try options.date("date", years: 1900...2100, what: "the sky's models are documented for")
        let now = OutputClock.unixTime()
        let latitude: Double
        switch place {
        case .stop(let index): latitude = timetable.stops[index].latitude
        case .spot(let lat, _, _): latitude = lat
        }
        let outlook = HistoryStreams.outlook(dataDirectory: directory, now: now, latitude: latitude)
        guard let day = WavesAnswer.day(timetable, marks: marks, place: place, date: date, now: now, outlook: outlook) else {
            Log.error("the timetable has no stops")
            return 1
        }
        if options.flags.contains("json") {
            writeOut(WavesAnswer.json(day, timetable: timetable) + "\n")
            return 0
        }
        writeOut(
            WavesAnswer.text(
                day,
                placeName: {
                    if case .stop(let i) = $0 { return timetable.stops[i].name }; return nil
                }))
        return 0
    }
}
