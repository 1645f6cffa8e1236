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
    public static func read(directory: String = "/sys/class/power_supply") -> PowerSupplyReading {
        guard let dir = opendir(directory) else { return PowerSupplyReading(externalPower: nil, batteryPercent: nil) }
        defer { closedir(dir) }
        var external: Bool?
        var battery: Double?
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            let base = directory + "/" + name + "/"
            guard let type = value(base + "type") else { continue }
            switch type {
            case "Mains", "USB", "USB_C", "USB_PD", "Wireless":
                if value(base + "online") == "1" { external = true } else if external == nil { external = false }
            case "Battery":
                if let capacity = value(base + "capacity").flatMap(Double.init), (0...100).contains(capacity) {
                    battery = min(battery ?? 100, capacity)
                }
                if value(base + "status") == "Charging" { external = true }
            default:
                continue
            }
        }
        return PowerSupplyReading(externalPower: external, batteryPercent: battery)
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
