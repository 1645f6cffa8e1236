import LodestoneCore

/// Which trips run on which of the days a departures answer looks at, each service's days
/// resolved once (a bit a day) rather than its calendar asked by name for every call of every
/// day: the busiest stop of a national feed has 20,000 calls.
struct ServiceDays {
    /// The days looked at, as days since 1970-01-01; bit `n` of a mask is `days[n]`.
    let days: [Int]
    private let calendar: ServiceCalendar
    private let trips: TimetableRows<Timetable.Trip>
    /// Each trip's service as a number, where the store keeps them so; else by name.
    private let numbers: [Int32]?
    private let serviceNames: [String]
    private var tripMasks: [UInt16]
    private var numberMasks: [UInt16]
    private var nameMasks: [String: UInt16] = [:]
    private static let unknown = UInt16.max

    init(_ t: Timetable, days: [Int]) {
        self.days = Array(days.prefix(15))
        (calendar, trips) = (t.calendar, t.trips)
        if let lookups = t.lookups, t.trips.isStored {
            numbers = lookups.tripServices() ?? []
            serviceNames = lookups.serviceNames
        } else {
            (numbers, serviceNames) = (nil, [])
        }
        tripMasks = [UInt16](repeating: Self.unknown, count: t.trips.count)
        numberMasks = [UInt16](repeating: Self.unknown, count: serviceNames.count)
    }

    /// Whether `trip` runs on `days[day]` (false for a trip or a day it does not have).
    mutating func runs(trip: Int, onDay day: Int) -> Bool {
        guard tripMasks.indices.contains(trip), days.indices.contains(day) else { return false }
        var mask = tripMasks[trip]
        if mask == Self.unknown {
            mask = resolve(trip)
            tripMasks[trip] = mask
        }
        return mask & (1 << UInt16(day)) != 0
    }

    private mutating func resolve(_ trip: Int) -> UInt16 {
        guard let numbers else {
            let name = trips[trip].service
            if let known = nameMasks[name] { return known }
            let mask = self.mask(name)
            nameMasks[name] = mask
            return mask
        }
        // A trip the store could not read, or with a service it does not have: it runs on no day.
        guard numbers.indices.contains(trip), numberMasks.indices.contains(Int(numbers[trip])) else { return 0 }
        let number = Int(numbers[trip])
        if numberMasks[number] == Self.unknown { numberMasks[number] = mask(serviceNames[number]) }
        return numberMasks[number]
    }

    private func mask(_ service: String) -> UInt16 {
        var mask: UInt16 = 0
        for (n, day) in days.enumerated() {
            let date = CivilTime.civil(fromDays: day)
            let key = date.year * 10_000 + date.month * 100 + date.day
            if calendar.runs(service, date: key, weekday: CivilTime.weekday(days: day)) { mask |= 1 << UInt16(n) }
        }
        return mask
    }
}
