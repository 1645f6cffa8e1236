import Glibc
import LodestoneCore

/// What the kernel's power-supply class says (/sys/class/power_supply): whether external
/// power (mains or USB) is present and how full the battery is. Boards without a fuel gauge
/// have no such directory, which reads as unknown. Read every few seconds from the output
/// thread; odd or missing files are skipped, never fatal.
public struct PowerSupplyReading: Sendable, Equatable {
    public var externalPower: Bool?
    public var batteryPercent: Double?
    public init(externalPower: Bool?, batteryPercent: Double?) {
        self.externalPower = externalPower
        self.batteryPercent = batteryPercent
    }
}

public enum PowerSupply {
    /// One reading of the class under `directory` (a reader that lists it and reads it once).
    public static func read(directory: String = "/sys/class/power_supply") -> PowerSupplyReading {
        PowerSupplyReader(directory: directory).read()
    }
}

/// Reads the power-supply class again and again (every few seconds, on the output thread):
/// the supplies are listed once, their attributes' paths kept in the C library's form, and
/// each reading reads them into a buffer on the stack, so a reading allocates nothing. The
/// folder is listed again hourly (a supply that came or went) and whenever an attribute
/// cannot be read.
public final class PowerSupplyReader {
    private let directory: String
    private var supplies: [Supply] = []
    private var readsUntilListing = 0
    /// Readings between listings: an hour at one every 10 s.
    static let readsPerListing = 360

    private struct Supply {
        /// Mains, USB and wireless chargers say whether they are `online`; a battery has a
        /// `capacity` (per cent) and a `status` (Charging when external power fills it).
        var online: ContiguousArray<CChar>?
        var capacity: ContiguousArray<CChar>?
        var status: ContiguousArray<CChar>?
    }

    public init(directory: String = "/sys/class/power_supply") { self.directory = directory }

    public func read() -> PowerSupplyReading {
        let listed = readsUntilListing <= 0
        if listed { list() }
        readsUntilListing -= 1
        let (reading, complete) = take()
        // A supply went away (or a file became unreadable) since the listing: list again.
        guard !complete, !listed else { return reading }
        list()
        return take().reading
    }

    /// The supplies' attributes now; `complete` is false when one could not be read.
    private func take() -> (reading: PowerSupplyReading, complete: Bool) {
        var external: Bool?
        var battery: Double?
        var complete = true
        for supply in supplies {
            if let online = supply.online {
                let value = Self.value(online)
                if value == nil { complete = false }
                if value == .one { external = true } else if external == nil { external = false }
            }
            if let capacity = supply.capacity {
                let value = Self.value(capacity)
                if value == nil { complete = false }
                if case .number(let percent)? = value, percent <= 100 { battery = min(battery ?? 100, Double(percent)) }
            }
            if let status = supply.status, Self.value(status) == .charging { external = true }
        }
        return (PowerSupplyReading(externalPower: external, batteryPercent: battery), complete)
    }

    private func list() {
        readsUntilListing = Self.readsPerListing
        supplies = []
        guard let folder = opendir(directory) else { return }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        for name in names.sorted() {
            let base = directory + "/" + name + "/"
            switch Self.value(base + "type") {
            case "Mains", "USB", "USB_C", "USB_PD", "Wireless":
                supplies.append(Supply(online: (base + "online").utf8CString))
            case "Battery":
                supplies.append(Supply(capacity: (base + "capacity").utf8CString, status: (base + "status").utf8CString))
            default:
                continue
            }
        }
    }

    /// What an attribute's first line says, as far as a reading needs to know.
    enum Value: Equatable {
        case one
        case charging
        case number(Int)
        case other
    }

    /// The attribute at `path`, read into the stack; nil when it cannot be read.
    static func value(_ path: ContiguousArray<CChar>) -> Value? {
        let fd = path.withUnsafeBufferPointer { name in
            name.baseAddress.map { open($0, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) } ?? -1
        }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer -> Value? in
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            guard count > 0 else { return nil }
            var line = UnsafeBufferPointer(rebasing: buffer[..<count])
            while let last = line.last, last == 10 || last == 13 || last == 32 || last == 9 { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
            if line.elementsEqual("1".utf8) { return .one }
            if line.elementsEqual("Charging".utf8) { return .charging }
            guard !line.isEmpty, line.count <= 3, line.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return .other }
            return .number(line.reduce(0) { $0 * 10 + Int($1 - 48) })
        }
    }

    /// A sysfs attribute's first line, trimmed.
    static func value(_ path: String) -> String? {
        guard let fd = try? GuardedOpen.input(path) else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        return text.split(whereSeparator: { $0 == "\n" }).first.map { String($0).trimmingSpace() }
    }
}

extension String {
    func trimmingSpace() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s = s.dropLast() }
        return String(s)
    }
}
