import LodestoneCore

/// Faults injected into a simulated trip, each for a stretch of world time, so the device's
/// reaction can be judged against what really happened.
public struct SimulatedFault: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// A magnet (a phone, a knife, a speaker) held beside the device: a strong field fixed
        /// to the device's body, reaching full strength over half a second.
        case magnet
        /// A chip stops answering on the bus (a loose wire, a brown-out).
        case silentMagnetometer = "silent-mag"
        case silentIMU = "silent-imu"
        case silentBarometer = "silent-baro"
        /// The receiver loses the sky (a tunnel, a deep valley): it goes on sending sentences,
        /// without a position.
        case gpsOutage = "gps-outage"
        /// Every transfer on the I2C bus fails (interference on a long cable, a chip holding
        /// the bus low): each chip is lost at once.
        case busErrors = "bus-errors"
        /// A chip holds the bus (its clock stretched without end): the transfer in progress
        /// blocks for the whole stretch, and the sampling thread with it. What a service
        /// manager's watchdog is for.
        case busHang = "bus-hang"
        /// The receiver sends nothing at all (unplugged, powered down).
        case gpsSilence = "gps-silence"
        /// The receiver's line carries noise: random bytes, cut and corrupted sentences.
        case gpsGarbage = "gps-garbage"
        /// The data directory's disk is full: every write of a track, a log, the history or a
        /// stored file fails with ENOSPC (see `SimulatedDiskFull`).
        case diskFull = "disk-full"

        /// How long the fault lasts unless told, seconds.
        public var standardDuration: Double {
            switch self {
            case .magnet: return 15
            case .silentMagnetometer, .silentIMU, .silentBarometer: return 5
            case .gpsOutage, .gpsSilence, .gpsGarbage: return 30
            case .busErrors: return 3
            case .busHang: return 5
            case .diskFull: return 30
            }
        }
    }

    public var kind: Kind
    /// World time the fault starts, and how long it lasts, seconds.
    public var start: Double
    public var duration: Double

    public init(kind: Kind, start: Double, duration: Double? = nil) {
        self.kind = kind
        self.start = start
        self.duration = duration ?? kind.standardDuration
    }

    public var end: Double { start + duration }

    /// `KIND@START` or `KIND@START+DURATION` (seconds of world time), as `--fault` takes it.
    public init?(_ text: String) {
        let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
        guard parts.count == 2, let kind = Kind(rawValue: parts[0]) else { return nil }
        let times = parts[1].split(separator: "+", maxSplits: 1).compactMap { DecimalNumber.parse($0) }
        guard times.count == parts[1].split(separator: "+").count, let start = times.first,
            start.isFinite, start >= 0, start < 1e7
        else { return nil }
        let duration = times.count > 1 ? times[1] : kind.standardDuration
        guard duration.isFinite, duration > 0, duration < 1e7 else { return nil }
        self.init(kind: kind, start: start, duration: duration)
    }

    public var description: String { "\(kind.rawValue)@\(start)+\(duration)" }
}

/// Every fault of a trip.
public struct FaultPlan: Sendable, Equatable {
    public var faults: [SimulatedFault]

    public init(_ faults: [SimulatedFault] = []) { self.faults = faults }

    public func isActive(_ kind: SimulatedFault.Kind, at t: Double) -> Bool {
        for fault in faults where fault.kind == kind && t >= fault.start && t < fault.end { return true }
        return false
    }

    /// The magnet's field in body axes at world time `t`, microtesla: about twice Earth's, off
    /// the device's axes so that no rotation of the device hides it.
    public func magnetField(at t: Double) -> Vector3 {
        for fault in faults where fault.kind == .magnet && t >= fault.start && t < fault.end {
            let strength = min(1, (t - fault.start) / 0.5)
            return Vector3(60, -45, 35) * strength
        }
        return .zero
    }
}
