import LodestoneCore

/// The sky as a receiver sees it: the satellites of one complete GSV cycle (over all talkers)
/// and the PRNs GSA says are used. Storage is allocated once, so a sentence never allocates.
public final class SatelliteView: @unchecked Sendable {
    public static let capacity = 96
    private let satellites = UnsafeMutablePointer<Satellite>.allocate(capacity: SatelliteView.capacity)
    // Only the parser that owns the view touches these, one sentence at a time: the run-time
    // exclusivity checks a class's stored properties get would cost more than the work.
    @exclusivity(unchecked) public private(set) var count = 0
    private let usedPRNs = UnsafeMutablePointer<Int>.allocate(capacity: SatelliteView.capacity)
    @exclusivity(unchecked) private var usedCount = 0

    public init() {}

    deinit {
        satellites.deallocate()
        usedPRNs.deallocate()
    }

    public subscript(index: Int) -> Satellite { satellites[index] }

    func clearSatellites() { count = 0 }

    func add(_ satellite: Satellite) {
        guard count < Self.capacity else { return }
        for index in 0..<count where satellites[index].prn == satellite.prn {
            satellites[index] = satellite
            return
        }
        satellites[count] = satellite
        count += 1
    }

    func clearUsed() { usedCount = 0 }

    func markUsed(_ prn: Int) {
        guard usedCount < Self.capacity else { return }
        usedPRNs[usedCount] = prn
        usedCount += 1
    }

    func isUsed(_ prn: Int) -> Bool {
        for index in 0..<usedCount where usedPRNs[index] == prn { return true }
        return false
    }

    /// Marks each listed satellite as used or not from the latest GSA sentences.
    func applyUsed() {
        for index in 0..<count { satellites[index].used = isUsed(satellites[index].prn) }
    }
}
