import Glibc
import LodestoneCore

/// Photos under `<dataDir>/photos/`: `YYYYMMDD-HHMMSS.jpg` by the time taken (`-2`, `-3` for
/// more in the same second), each written whole beside its place and renamed into it.
public struct PhotoStore: Sendable {
    public let directory: String
    public init(dataDirectory: String) { directory = dataDirectory + "/photos" }

    public func path(_ file: String) -> String { directory + "/" + file }

    /// Files a photo; its file name.
    public func save(_ jpeg: [UInt8], time: Double) throws(StorageError) -> String {
        guard makeDirectories(directory) else { throw StorageError("cannot create \(directory)") }
        let stamp = CivilTime(unixSeconds: time).compactStamp
        for suffix in 1...1000 {
            let file = stamp + (suffix == 1 ? "" : "-\(suffix)") + ".jpg"
            guard !fileExists(path(file)) else { continue }
            do { try replaceFile(path(file), with: jpeg) } catch { throw StorageError(error.description) }
            return file
        }
        throw StorageError("more than 1000 photos in one second in \(directory)")
    }

    /// The photos kept, oldest first.
    public func list() -> [String] { directoryEntries(directory).filter { $0.hasSuffix(".jpg") }.sorted() }
}
