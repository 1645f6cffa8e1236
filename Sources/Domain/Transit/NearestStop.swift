import LodestoneCore

/// The nearest stop worth walking to: the closest one from which something leaves in the next
/// 24 hours, within a distance (20 km unless the person set `transit.nearestWithinKm`). The
/// closest stop by distance alone is often a terminus whose last boat left for the season, or,
/// at sea, a stop hundreds of kilometres away: neither answers "what can I catch from here".
public enum NearestStop {
    public struct Found: Sendable, Equatable {
        public var index: Int
        /// Metres, and the bearing from the place to the stop, degrees true.
        public var distance: Double, bearing: Double
    }

    /// 20 km: a long walk or a short ride, the farthest a stop is still "near".
    public static let defaultWithin = 20_000.0
    /// Service within a day: tomorrow morning's first boat counts, next week's does not.
    public static let serviceHorizon = 86_400.0

    /// The closest stop within `within` metres of the place with a departure in the
    /// `serviceHorizon` after `time`; nil when there is none.
    public static func find(
        in timetable: Timetable, latitude: Double, longitude: Double, time: Double, within: Double = defaultWithin
    ) -> Found? {
        guard latitude.isFinite, longitude.isFinite, within.isFinite else { return nil }
        var near: [Found] = []
        for index in timetable.stops.indices {
            let place = timetable.position(of: index)
            let leg = Geodesy.inverse(latitude1: latitude, longitude1: longitude, latitude2: place.latitude, longitude2: place.longitude)
            if leg.distance <= within { near.append(Found(index: index, distance: leg.distance, bearing: leg.bearing)) }
        }
        // Closest first; the departures are looked up only until one stop has service.
        near.sort { $0.distance < $1.distance }
        return near.first { found in
            guard let next = timetable.departures(from: found.index, after: time, count: 1).first else { return false }
            return next.time < time + serviceHorizon
        }
    }
}
