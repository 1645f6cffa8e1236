import LodestoneCore
import LodestoneRuntime
import LodestoneStorage

/// A command that changes what the device keeps (adds, deletes, edits, imports) holds the data
/// directory's lock for the moment of its change, so it never writes beneath a running
/// instance's feet: while `lodestone run` owns the folder the change is refused, saying how
/// to make it (through that instance's socket, where the command can).
struct StoreChange {
    /// The lock while the change is made; nil when the folder could not be made (the store
    /// then says why it cannot write).
    let lock: DataDirectoryLock?

    /// Permission to change the stores in `directory` (keep it until the change is made), or
    /// nil after saying why the change cannot be made now.
    /// `throughSocket`: the command can make its change through a running instance instead.
    static func begin(_ directory: String, throughSocket: Bool = false) -> StoreChange? {
        // A first change creates the folder; one that cannot be created is said by the store.
        guard makeDirectories(directory) else { return StoreChange(lock: nil) }
        switch DataDirectoryLock.take(dataDirectory: directory) {
        case .success(let lock): return StoreChange(lock: lock)
        case .failure(let refusal):
            switch refusal {
            case .held:
                Log.error(
                    refusal.description
                        + (throughSocket
                            ? ": make the change through it (give its --socket PATH) or stop it first"
                            : ": stop it first, then make the change"))
            case .refused(let reason), .unusable(let reason): Log.error(reason)
            }
            return nil
        }
    }
}
