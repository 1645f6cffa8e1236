import LodestoneCore

/// A store's text, or nil when it is missing, refused (said once in the log) or unreadable.
public func readStoreTextIfPresent(_ path: String, limit: Int = 1 << 20) -> String? {
    do { return try readStoreText(path, limit: limit) } catch {
        if !error.isMissing { Log.warning(error.description) }
        return nil
    }
}
