import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneRuntime
import LodestoneEncoding

/// `lodestone eclipses`: the next eclipses of the Sun and the Moon, and how a place sees them.
enum EclipsesCommand {
    static let help = """
        Usage: lodestone eclipses [--from YYYY-MM-DD] [--count N] [--lat L --lon L [--elevation M]] [--tz ZONE] [--json]

        The next solar and lunar eclipses from the start of --from (default today) in the zone, N of
        them (default 10, at most 100), in time order: the type (total, annular, hybrid or partial
        for the Sun; total, partial or penumbral for the Moon), the instant of greatest eclipse (UTC)
        and the magnitude. Solar magnitude: the Moon's apparent diameter over the Sun's on the
        shadow's axis, or the fraction of the Sun's diameter covered where the eclipse is greatest
        when the axis misses the Earth; with gamma, the axis's least distance from the Earth's
        centre in Earth radii. Lunar: the umbral magnitude (negative for a penumbral eclipse) and
        the penumbral magnitude. Computed offline from the sky's own Sun and Moon with the
        conventions of NASA's Five Millennium Canons, which they match within a minute and 0.01 in
        magnitude over 2000-2100.

        With --lat and --lon (and --elevation in metres), how that place sees each eclipse. Solar:
        first contact (c1), the start and end of totality or annularity (c2, c3) inside the path,
        the maximum and last contact (c4), the magnitude and the obscuration (the fraction of the
        Sun's disc covered) at maximum, the Sun's altitude at each, and whether the Sun is up (its
        upper limb above the horizon) at some moment of the eclipse. Lunar: the phases' times, the
        same everywhere (p1, u1, u2, greatest, u3, u4, p4: those that happen), the Moon's altitude at
        greatest, and whether the Moon is up during part of the umbral phases (of the penumbral
        phase for a penumbral eclipse). Contacts are given even when the body is below the horizon.
        ZONE is an IANA name (Europe/Madrid) or an offset (+02:00), default the device's
        (timeZone in the configuration), else the system's; local
        times are ISO-8601 with its offset.

        Examples:
          lodestone eclipses --count 4
          lodestone eclipses --from 2026-01-01 --lat 43.26 --lon -2.93 --tz Europe/Madrid --json
        """

    typealias Place = EclipseAnswer.Place

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments, spec: OptionSpec(valued: ["from", "count", "lat", "lon", "elevation", "tz"], flags: ["json"]),
            command: "eclipses")
        if let extra = options.positional.first {
            throw UsageError(message: "unexpected argument '\(extra)' for 'eclipses' (see 'lodestone eclipses --help')")
        }
        let count = try options.integer("count", in: 1...100) ?? 10
        let latitude = try options.number("lat", in: -90...90), longitude = try options.number("lon", in: -180...180)
        let elevation = try options.number("elevation", in: -500...9000)
        var place: Place?
        if let latitude, let longitude {
            place = Place(latitude: latitude, longitude: longitude, elevation: elevation ?? 0)
        } else if latitude != nil || longitude != nil || elevation != nil {
            throw UsageError(message: "the place needs both --lat DEGREES and --lon DEGREES (north and east positive)")
        }
        let zone = try SkyCommand.zoneOption(options)
        let start: Double
        if let date = try options.date("from", years: 1900...2100, what: "the eclipse predictions are documented for") {
            start = zone.midnight(year: date.year, month: date.month, day: date.day)
        } else {
            let now = OutputClock.unixTime()
            let today = CivilTime(unixSeconds: now + Double(zone.offset(at: now)))
            start = zone.midnight(year: today.year, month: today.month, day: today.day)
        }
        if options.flags.contains("json") {
            writeOut(EclipseAnswer.json(after: start, count: count, place: place, zone: zone) + "\n")
        } else {
            writeOut(Eclipses.upcoming(after: start, count: count).map { text($0, place: place, zone: zone) }.joined(separator: "\n"))
        }
        return 0
    }

    static func text(_ eclipse: Eclipse, place: Place?, zone: TimeZoneRules) -> String {
        func clock(_ t: Double) -> String { String(zone.iso8601(t).map { $0 == "T" ? " " : $0 }) }
        let greatest = String(EclipseAnswer.utc(eclipse.greatest).dropLast().map { $0 == "T" ? " " : $0 }) + " UTC"
        var out = "\(eclipse.type.rawValue.capitalizedFirst) \(eclipse.kind.rawValue) eclipse, greatest \(greatest)\n"
        if eclipse.kind == .solar {
            out += "  magnitude \(DecimalText.format(eclipse.magnitude, 4)), gamma \(DecimalText.format(eclipse.gamma ?? .nan, 4))\n"
        } else {
            out += "  umbral magnitude \(DecimalText.format(eclipse.magnitude, 4)), penumbral \(DecimalText.format(eclipse.penumbralMagnitude ?? .nan, 4))\n"
        }
        guard let place else { return out }
        let at = "  at \(fixed(place.latitude, 4)), \(fixed(place.longitude, 4)): "
        if eclipse.kind == .solar {
            guard let local = EclipseLocal.solar(eclipse, latitude: place.latitude, longitude: place.longitude, elevation: place.elevation) else {
                return out + at + "no eclipse (the Moon's shadow misses this place)\n"
            }
            out +=
                at + "\(local.type.rawValue), \(local.visible ? "visible" : "not visible (the Sun is down)"); "
                + "magnitude \(DecimalText.format(local.magnitude, 3)), \(DecimalText.format(local.obscuration * 100, 1))% of the Sun covered\n"
            for phase in EclipseAnswer.solarPhases(local) {
                out += "    " + phase.name.padding(9) + clock(phase.time) + "  Sun \(fixed(phase.altitude, 0))°\n"
            }
            if let c2 = local.c2, let c3 = local.c3 { out += "    \(local.type.rawValue) for \(fixed(c3 - c2, 0)) s\n" }
        } else {
            let local = EclipseLocal.lunar(eclipse, latitude: place.latitude, longitude: place.longitude)
            out +=
                at + (local.visible ? "visible" : "not visible (the Moon is down)")
                + "; the Moon at \(fixed(local.moonAltitudeAtGreatest, 0))° at greatest\n"
            for phase in local.contacts.all { out += "    " + phase.name.padding(9) + clock(phase.time) + "\n" }
        }
        return out
    }
}
