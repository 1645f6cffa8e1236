import Glibc
import LodestoneCore

/// Why a 1-Wire probe could not be read from sysfs.
public enum OneWireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The devices directory itself is missing: the kernel's 1-Wire bus is not enabled.
    case noBus(path: String)
    /// No probe with this ID is on the bus (or it has neither attribute file).
    case noSuchProbe(id: String, base: String)
    /// The file exists but could not be read; errno from open or read.
    case unreadable(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .noBus(let path):
            return "\(path) does not exist: enable the 1-Wire bus (dtoverlay=w1-gpio in config.txt, or modprobe w1-gpio w1-therm)"
        case .noSuchProbe(let id, let base):
            return "no 1-Wire probe \(id) under \(base): check the probe ID in the board file (ls \(base)) and the probe's wiring"
        case .unreadable(let path, let code):
            if code == EIO {
                return "reading \(path) failed (EIO): the probe did not answer correctly; check the data wire and the 4.7 kΩ pull-up"
            }
            if code == EACCES {
                return "permission denied reading \(path): run as a user that may read sysfs"
            }
            return "reading \(path) failed with errno \(code)"
        }
    }
}

/// What a probe's folder gave: the text of its `temperature` attribute (millidegrees; newer
/// kernels) or of its older `w1_slave` file (scratchpad bytes, the kernel's CRC verdict, t=).
public enum OneWireProbeText: Sendable, Equatable {
    case temperature(String)
    case slave(String)
}

/// The thermometers the Linux w1 subsystem shows under /sys/bus/w1/devices: one folder per
/// device, named by family code and serial number ("28-0316a279ed1f"); family 0x28 is the
/// DS18B20. The base path is injectable so tests can use a folder shaped like sysfs.
///
/// Reading a probe's file makes the kernel start a conversion and wait for it (up to 750 ms
/// at 12 bits), so these reads belong on the I/O thread or a worker, never in the sampling
/// loop.
public struct OneWireDirectory: Sendable, Equatable {
    public var basePath: String

    public init(basePath: String = "/sys/bus/w1/devices") { self.basePath = basePath }

    /// The IDs of the DS18B20 probes present (folders named `28-*`), sorted.
    public func probes() -> Result<[String], OneWireError> {
        guard let directory = opendir(basePath) else { return .failure(.noBus(path: basePath)) }
        defer { closedir(directory) }
        var ids: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("28-") { ids.append(name) }
        }
        return .success(ids.sorted())
    }

    /// One probe's reading as text: its `temperature` attribute when the kernel has one,
    /// else its `w1_slave` file.
    public func read(probe id: String) -> Result<OneWireProbeText, OneWireError> {
        // An ID from a board file must not reach outside the devices folder.
        guard !id.isEmpty, !id.contains("/"), id != ".", id != ".." else {
            return .failure(.noSuchProbe(id: id, base: basePath))
        }
        let folder = basePath + "/" + id
        switch Self.readText(folder + "/temperature") {
        case .success(let text): return .success(.temperature(text))
        case .failure(.unreadable(_, let code)) where code == ENOENT: break
        case .failure(let error): return .failure(error)
        }
        switch Self.readText(folder + "/w1_slave") {
        case .success(let text): return .success(.slave(text))
        case .failure(.unreadable(_, let code)) where code == ENOENT:
            return .failure(.noSuchProbe(id: id, base: basePath))
        case .failure(let error): return .failure(error)
        }
    }

    /// A small file's whole text; sysfs attributes are far below the 4 KiB read here.
    static func readText(_ path: String) -> Result<String, OneWireError> {
        let fd: Int32
        // A pipe or a device in a probe's place is refused before any read: it would block the thread.
        do { fd = try GuardedOpen.input(path) } catch {
            return .failure(.unreadable(path: path, errno: error.found != nil ? EINVAL : error.errno))
        }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { bytes in
                Glibc.read(fd, bytes.baseAddress.map { $0 + filled }, bytes.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(path: path, errno: errno))
            }
            if count == 0 { break }
            filled += count
        }
        return .success(String(decoding: buffer.prefix(filled), as: UTF8.self))
    }
}
