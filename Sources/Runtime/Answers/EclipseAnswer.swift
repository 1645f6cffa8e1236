import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// The next eclipses as JSON, and how a place sees each: `lodestone eclipses --json` prints it
/// and the web app's `GET /api/v1/eclipses` serves it, one text for both.
package enum EclipseAnswer {
    package struct Place: Sendable {
        package var latitude: Double, longitude: Double, elevation: Double
        package init(latitude: Double, longitude: Double, elevation: Double) {
            (self.latitude, self.longitude, self.elevation) = (latitude, longitude, elevation)
        }
    }

    /// The `count` eclipses after `start`, in time order, as one JSON array (one eclipse a line).
    package static func json(after start: Double, count: Int, place: Place?, zone: TimeZoneRules) -> String {
        "[" + Eclipses.upcoming(after: start, count: count).map { json($0, place: place, zone: zone) }.joined(separator: ",\n") + "]"
    }

    /// "2026-08-12T17:45:51Z": the instant of greatest eclipse, to the second.
    package static func utc(_ time: Double) -> String {
        let t = CivilTime(unixSeconds: time.rounded())
        return zeroPadded(t.year, 4) + "-" + zeroPadded(t.month, 2) + "-" + zeroPadded(t.day, 2) + "T" + zeroPadded(t.hour, 2) + ":"
            + zeroPadded(t.minute, 2) + ":" + zeroPadded(Int(t.second), 2) + "Z"
    }

    package static func json(_ eclipse: Eclipse, place: Place?, zone: TimeZoneRules) -> String {
        var w = JSONObjectWriter()
        w.string("kind", eclipse.kind.rawValue)
        w.string("type", eclipse.type.rawValue)
        w.string("greatest", utc(eclipse.greatest))
        w.number("magnitude", eclipse.magnitude, decimals: 4)
        if let penumbral = eclipse.penumbralMagnitude { w.number("penumbralMagnitude", penumbral, decimals: 4) }
        if let gamma = eclipse.gamma { w.number("gamma", gamma, decimals: 4) }
        if let place {
            w.raw("local", eclipse.kind == .solar ? solarJSON(eclipse, place: place, zone: zone) : lunarJSON(eclipse, place: place, zone: zone))
        } else {
            w.null("local")
        }
        return w.finished
    }

    static func solarJSON(_ eclipse: Eclipse, place: Place, zone: TimeZoneRules) -> String {
        var w = JSONObjectWriter()
        guard let local = EclipseLocal.solar(eclipse, latitude: place.latitude, longitude: place.longitude, elevation: place.elevation) else {
            // The penumbra never reaches the place: nothing of the Sun is covered there.
            w.bool("visible", false)
            w.null("type")
            w.null("contacts")
            w.number("magnitude", 0)
            w.number("obscuration", 0)
            return w.finished
        }
        let phases = solarPhases(local)
        w.bool("visible", local.visible)
        w.string("type", local.type.rawValue)
        var contacts = JSONObjectWriter(), altitudes = JSONObjectWriter()
        for phase in phases {
            contacts.string(phase.name, zone.iso8601(phase.time))
            altitudes.number(phase.name, phase.altitude, decimals: 1)
        }
        w.raw("contacts", contacts.finished)
        w.number("magnitude", local.magnitude, decimals: 4)
        w.number("obscuration", local.obscuration, decimals: 4)
        w.raw("sunAltitudes", altitudes.finished)
        w.number("sunAltitudeAtMax", local.sunAltitudeAtMaximum, decimals: 1)
        if let c2 = local.c2, let c3 = local.c3 { w.number("centralDurationSeconds", c3 - c2, decimals: 1) }
        return w.finished
    }

    static func lunarJSON(_ eclipse: Eclipse, place: Place, zone: TimeZoneRules) -> String {
        let local = EclipseLocal.lunar(eclipse, latitude: place.latitude, longitude: place.longitude)
        var w = JSONObjectWriter(), contacts = JSONObjectWriter()
        w.bool("visible", local.visible)
        for phase in local.contacts.all { contacts.string(phase.name, zone.iso8601(phase.time)) }
        w.raw("contacts", contacts.finished)
        w.number("moonAltitudeAtGreatest", local.moonAltitudeAtGreatest, decimals: 1)
        return w.finished
    }

    /// The local contacts in order, with the Sun's altitude at each.
    package static func solarPhases(_ local: SolarEclipseLocal) -> [(name: String, time: Double, altitude: Double)] {
        var phases = [("c1", local.c1, local.sunAltitudeAtC1)]
        if let c2 = local.c2, let altitude = local.sunAltitudeAtC2 { phases.append(("c2", c2, altitude)) }
        phases.append(("max", local.maximum, local.sunAltitudeAtMaximum))
        if let c3 = local.c3, let altitude = local.sunAltitudeAtC3 { phases.append(("c3", c3, altitude)) }
        phases.append(("c4", local.c4, local.sunAltitudeAtC4))
        return phases
    }
}
