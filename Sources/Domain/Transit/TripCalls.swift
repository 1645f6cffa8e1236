extension Timetable {
    /// The calls a departure's trip makes after it leaves: each next stop (an index into
    /// `stops`) and when the trip is there, found by following each call's next stop to that
    /// stop's call of the same trip, no earlier in its day. At most `limit` (a trip that comes
    /// back to a stop it left cannot go round for ever).
    public func onwardCalls(of departure: Departure, limit: Int = 500) -> [(stop: Int, time: Double)] {
        guard let first = departure.call else { return [] }
        // The trip's service day starts here: GTFS times count from it.
        let base = departure.time - Double(first.seconds)
        var found: [(stop: Int, time: Double)] = []
        var current = first
        while let next = current.next, stops.indices.contains(next), found.count < limit {
            let later = calls(at: next).filter { $0.trip == current.trip && $0.seconds >= current.seconds }
            guard let call = later.min(by: { $0.seconds < $1.seconds }) else { break }
            found.append((next, base + Double(call.seconds)))
            current = call
        }
        return found
    }
}
