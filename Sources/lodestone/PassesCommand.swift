import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneRuntime
import LodestoneEncoding
import LodestoneStorage

/// `lodestone passes`: when satellites cross the observer's sky, from a local TLE file.
enum PassesCommand {
    static let help = """
        Usage: lodestone passes --tle FILE --lat L --lon L [--days D] [--date YYYY-MM-DD] [--satellite NAME|NUMBER]
                                [--min-altitude DEG] [--elevation M] [--tz ZONE] [--json]

        Propagates the element sets in FILE (two-line elements, several per file, names on the
        line before each) with SGP4/SDP4 and lists each pass: rise, culmination (time, altitude,
        azimuth) and set, and whether it is visible (the satellite sunlit while the Sun is more
        than 6° below the observer's horizon). By default the ISS when the file has it, else every
        satellite; from now (or the start of --date) for --days (default 3). Nothing is downloaded: keep the file up to date yourself
        (elements older than a couple of weeks drift by kilometres).

        Example:
          lodestone passes --tle stations.txt --lat 46.95 --lon 7.45 --tz Europe/Zurich
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments,
            spec: OptionSpec(
                valued: ["tle", "lat", "lon", "days", "date", "satellite", "min-altitude", "elevation", "tz"],
                flags: ["json"]), command: "passes")
        guard let file = options.values["tle"] else { throw UsageError(message: "passes needs --tle FILE (two-line element sets)") }
        guard let latitude = try options.number("lat", in: -90...90), let longitude = try options.number("lon", in: -180...180) else {
            throw UsageError(message: "passes needs the place: --lat DEGREES --lon DEGREES")
        }
        let days = try options.number("days", in: 0.01...30) ?? 3
        let minimum = try options.number("min-altitude", in: 0...89) ?? 0
        let height = try options.number("elevation", in: -500...9000) ?? 0
        let zone: TimeZoneRules
        zone = try SkyCommand.zoneOption(options)
        let text: String
        do { text = try readTextFile(file, limit: 16 << 20) } catch {
            Log.error("\(file): \(error.description)")
            return 1
        }
        let parsed = TwoLineElements.all(in: text)
        for problem in parsed.problems { Log.warning("\(file): \(problem)") }
        var chosen = parsed.sets
        if let wanted = options.values["satellite"] {
            chosen = chosen.filter { String($0.catalogNumber) == wanted || $0.name.lowercased().contains(wanted.lowercased()) }
            guard !chosen.isEmpty else { Log.error("no satellite '\(wanted)' in \(file)"); return 1 }
        } else if let iss = chosen.first(where: { $0.catalogNumber == 25544 || $0.name.uppercased().hasPrefix("ISS") }) {
            chosen = [iss]
        }
        guard !chosen.isEmpty else { Log.error("no two-line element sets in \(file)"); return 1 }
        var start = OutputClock.unixTime()
        if options.values["date"] != nil {
            let (y, m, d) = try SkyCommand.dateOption(options, zone: zone, now: start)
            start = zone.midnight(year: y, month: m, day: d)
        }
        var items: [String] = []
        for tle in chosen {
            let label = tle.name.isEmpty ? String(tle.catalogNumber) : tle.name
            let age = (start / 86_400 + 2_440_587.5 - tle.epochJulianDay)
            if age > 14 { Log.warning("\(label): the elements are \(Int(age)) days old; passes may be minutes off") }
            let satellite: SGP4
            do { satellite = try SGP4(tle) } catch {
                Log.warning("\(label): cannot be propagated (\(error)); skipped")
                continue
            }
            let passes = SatellitePasses.passes(
                satellite, from: start, to: start + days * 86_400, latitude: latitude, longitude: longitude,
                height: height, minimumAltitude: minimum)
            for p in passes {
                if options.flags.contains("json") {
                    items.append(SkyAnswer.pass(p, satellite: label, catalogNumber: tle.catalogNumber, zone: zone))
                } else {
                    func clock(_ t: Double) -> String { String(zone.iso8601(t).dropFirst(5).prefix(14)).replacingT }
                    writeOut(
                        "\(label)  rise \(clock(p.rise)) \(CompassPoint.name(p.riseAzimuth))  top \(clock(p.culmination)) "
                            + "\(fixed(p.maximumAltitude, 0))° \(CompassPoint.name(p.culminationAzimuth))  set \(clock(p.set)) "
                            + "\(CompassPoint.name(p.setAzimuth))\(p.visible ? "  visible" : "")\n")
                }
            }
        }
        if options.flags.contains("json") { writeOut("[" + items.joined(separator: ",\n") + "]\n") }
        return 0
    }
}

private extension String {
    var replacingT: String { String(map { $0 == "T" ? " " : $0 }) }
}
