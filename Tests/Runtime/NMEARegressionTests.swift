import Glibc
import LodestoneCore
import LodestoneOutputs
@testable import lodestone
import Testing

/// The NMEA pipeline against real receivers: each log in ../shared/data/nmea is run through
/// `lodestone nmea`'s converter and its fixes compared with gpsd's (the `.chk` files).
@Suite struct NMEARegressionTests {
    static let directory: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/shared/data/nmea/"
    }()

    struct Position: Hashable {
        var lat: Int64, lon: Int64
        init(_ lat: Double, _ lon: Double) {
            // 1e-6 degrees is the brief's tolerance; compare on that grid.
            self.lat = Int64((lat * 1e6).rounded())
            self.lon = Int64((lon * 1e6).rounded())
        }
    }

    struct Comparison {
        var gpsdPositions = 0, matchedPositions = 0, gpsdAltitudes = 0, matchedAltitudes = 0
        /// Fix modes compared per epoch: gpsd's last TPV of a time and position (its settled
        /// verdict, after the per-sentence reports) against ours for the same time and position.
        var gpsdModes = 0, matchedModes = 0
    }

    /// An epoch: the time to the second (empty when the receiver gave none) and the position.
    struct Epoch: Hashable {
        var time: Substring
        var position: Position
        init(_ report: JSONValue, _ position: Position) {
            time = (report["time"]?.stringValue ?? "").prefix(19)
            self.position = position
        }
    }

    static func bytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return out
    }

    static func compare(_ log: String) -> Comparison? {
        guard let input = bytes(directory + log), let check = bytes(directory + log + ".chk") else { return nil }
        var converter = NMEAConverter()
        var ours: [JSONValue] = []
        input.withUnsafeBytes { converter.feed($0) { line in if let v = try? JSONValue.parse(line) { ours.append(v) } } }
        converter.finish { line in if let v = try? JSONValue.parse(line) { ours.append(v) } }
        var ourPositions: [Position: [Double]] = [:]
        var ourModes: [Epoch: Int] = [:]
        var result = Comparison()
        for report in ours where report["class"]?.stringValue == "TPV" {
            if let lat = report["lat"]?.numberValue, let lon = report["lon"]?.numberValue {
                let position = Position(lat, lon)
                ourPositions[position, default: []].append(report["altMSL"]?.numberValue ?? .nan)
                let mode = Int(report["mode"]?.numberValue ?? 0)
                ourModes[Epoch(report, position)] = mode
                ourModes[Epoch(JSONValue.null, position)] = mode
            }
        }
        var gpsdModes: [Epoch: Int] = [:]
        var seen = Set<Position>()
        for line in String(decoding: check, as: UTF8.self).split(whereSeparator: \.isNewline) where line.hasPrefix(#"{"class":"TPV""#) {
            guard let report = try? JSONValue.parse(String(line)) else { continue }
            guard let lat = report["lat"]?.numberValue, let lon = report["lon"]?.numberValue else { continue }
            let position = Position(lat, lon)
            gpsdModes[Epoch(report, position)] = Int(report["mode"]?.numberValue ?? 0)
            guard seen.insert(position).inserted else { continue }
            result.gpsdPositions += 1
            guard let altitudes = ourPositions[position] else {
                continue
            }
            result.matchedPositions += 1
            if let altitude = report["altMSL"]?.numberValue {
                result.gpsdAltitudes += 1
                if altitudes.contains(where: { abs($0 - altitude) <= 0.01 }) { result.matchedAltitudes += 1 }
            }
        }
        for (epoch, mode) in gpsdModes {
            guard let ours = ourModes[epoch] else { continue }
            result.gpsdModes += 1
            if ours == mode { result.matchedModes += 1 }
        }
        return result
    }

    @Test func positionsAndAltitudesMatchGpsd() throws {
        guard let directory = opendir(Self.directory) else {
            print("skipped: ../shared/data/nmea is not present")
            return
        }
        var logs: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".log") { logs.append(name) }
        }
        closedir(directory)
        var total = Comparison()
        var report: [String] = []
        for log in logs.sorted() {
            guard let c = Self.compare(log) else { continue }
            total.gpsdPositions += c.gpsdPositions
            total.matchedPositions += c.matchedPositions
            total.gpsdAltitudes += c.gpsdAltitudes
            total.matchedAltitudes += c.matchedAltitudes
            total.gpsdModes += c.gpsdModes
            total.matchedModes += c.matchedModes
            if c.matchedPositions < c.gpsdPositions || c.matchedAltitudes < c.gpsdAltitudes || c.matchedModes < c.gpsdModes {
                report.append("\(log): positions \(c.matchedPositions)/\(c.gpsdPositions), altitudes \(c.matchedAltitudes)/\(c.gpsdAltitudes), "
                              + "modes \(c.matchedModes)/\(c.gpsdModes)")
            }
        }
        print("NMEA regression against gpsd over \(logs.count) logs: positions \(total.matchedPositions)/\(total.gpsdPositions), "
              + "altitudes \(total.matchedAltitudes)/\(total.gpsdAltitudes), modes \(total.matchedModes)/\(total.gpsdModes)")
        for line in report { print("  " + line) }
        #expect(total.gpsdPositions > 0)
        // Every position gpsd reports, to 1e-6 degrees, bar the differences the README lists.
        #expect(Double(total.matchedPositions) >= 0.95 * Double(total.gpsdPositions))
        #expect(Double(total.matchedAltitudes) >= 0.99 * Double(total.gpsdAltitudes))
        #expect(Double(total.matchedModes) >= 0.99 * Double(total.gpsdModes))
    }
}
