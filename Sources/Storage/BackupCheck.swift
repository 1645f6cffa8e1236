import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// Every file of an archive read by its own store's reader before anything is written, so an
/// import that would leave a store its reader refuses (a waypoints.json that is no list of
/// waypoints, a track with no readable header, a calibration that is not JSON) is refused
/// whole, naming the file. The manifest's digests prove a file is what the exporting device
/// wrote; this proves this device can read it.
enum BackupCheck {
    /// Why this device's reader refuses `bytes` as `path` (a path in the archive), or nil.
    static func problem(path: String, store: BackupStore, name: String, bytes: [UInt8]) -> String? {
        switch store.path {
        case "tracks" where name.hasSuffix(".track"):
            guard let parsed = TrackFile.parse(bytes), !parsed.headerDamaged else { return "\(path) is not a track this device can read" }
            return nil
        case "waypoints.json":
            guard let list = json(bytes)?.arrayValue else { return "\(path) is not a list of waypoints" }
            if list.contains(where: { WaypointStore.waypoint($0) == nil }) {
                return "\(path) holds an entry that is not a waypoint (a name, a latitude within ±90 and a longitude within ±180)"
            }
            return nil
        case "snapshots":
            guard let value = json(bytes), SnapshotJSON.snapshot(value) != nil else { return "\(path) is not a snapshot this device can read" }
            return nil
        case "history.bin":
            return HistoryFile.isWhole(bytes) ? nil : "\(path) is not a whole history file"
        case "photos":
            return bytes.starts(with: [0xFF, 0xD8]) ? nil : "\(path) is not a JPEG photo"
        default:
            // Every other JSON file (a track's summary, a calibration, the alerts' rules, the
            // device's memory): its reader starts by parsing it.
            guard name.hasSuffix(".json") else { return nil }
            switch json(bytes) {
            case .object?, .array?: return nil
            default: return "\(path) is not JSON this device can read"
            }
        }
    }

    private static func json(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONValue.parse(String(decoding: bytes, as: UTF8.self))
    }
}
