import LodestoneDomain

/// Each trip's calls in order, found once an import has read every stop time: the stop each
/// call is followed by, and the trip's last call (an arrival, where nobody boards). The order
/// is built in one array of 8 bytes a call, sized exactly from the counts, so a national
/// feed's million calls cost 8 MB here and nothing grows.
enum TripOrder {
    /// `calls` and `sequences` are per stop and parallel; `elsewhere` are the calls of kept
    /// trips at stops not kept; `counts` each trip's calls. With `arrivalsMarked` (the kept
    /// copy) the last call is left as it is.
    static func link(
        _ calls: inout [[Timetable.Call]], sequences: [[UInt32]], elsewhere: [(trip: UInt32, sequence: UInt32)],
        counts: [UInt32], arrivalsMarked: Bool
    ) {
        var offsets = [Int](repeating: 0, count: counts.count + 1)
        for (trip, count) in counts.enumerated() { offsets[trip + 1] = offsets[trip] + Int(count) }
        // (sequence << 32) | (stop + 1), 0 for a stop not kept: sorting a trip's slice orders it.
        var order = [UInt64](repeating: 0, count: offsets[counts.count])
        var cursor = offsets
        func put(_ trip: Int, _ entry: UInt64) {
            guard trip < counts.count, cursor[trip] < offsets[trip + 1] else { return }
            order[cursor[trip]] = entry
            cursor[trip] += 1
        }
        for (stop, list) in calls.enumerated() {
            for (index, call) in list.enumerated() where index < sequences[stop].count {
                put(call.trip, UInt64(sequences[stop][index]) << 32 | UInt64(stop + 1))
            }
        }
        for call in elsewhere { put(Int(call.trip), UInt64(call.sequence) << 32) }
        cursor = []
        for trip in counts.indices where counts[trip] > 1 { order[offsets[trip]..<offsets[trip + 1]].sort() }
        for stop in calls.indices {
            for index in calls[stop].indices where index < sequences[stop].count {
                let trip = calls[stop][index].trip
                guard trip < counts.count else { continue }
                let key = UInt64(sequences[stop][index]) << 32 | UInt64(stop + 1)
                let (start, end) = (offsets[trip], offsets[trip + 1])
                // The call's own entry, found by halving the trip's sorted slice.
                var (low, high) = (start, end)
                while low < high {
                    let middle = (low + high) / 2
                    if order[middle] < key { low = middle + 1 } else { high = middle }
                }
                guard low < end, order[low] == key else { continue }
                if low + 1 < end {
                    let next = Int(order[low + 1] & 0xFFFF_FFFF)
                    calls[stop][index].next = next > 0 ? next - 1 : nil
                } else if end - start > 1 && !arrivalsMarked {
                    calls[stop][index].departs = false  // where the trip ends: an arrival
                }
            }
        }
    }
}
