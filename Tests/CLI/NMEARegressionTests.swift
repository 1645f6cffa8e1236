import Glibc
import LodestoneCore
import LodestoneOutputs
@testable import lodestone
import Testing
@testable import LodestoneEncoding

/// The NMEA pipeline against real receivers: each log in ../shared/data/nmea is run through
/// `lodestone nmea`'s converter and its fixes compared with gpsd's (the `.chk` files).
@Suite struct NMEARegressionTests {
    static let directory: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/shared/data/nmea/"
    }()

    struct Comparison {
        var gpsdPositions = 0, matchedPositions = 0, gpsdAltitudes = 0, matchedAltitudes = 0
        var gpsdModes = 0, matchedModes = 0
        var differences: [String] = []
    }

    /// An epoch's key: the time of day to the hundredth of a second. Epochs are matched by the
    /// receiver's time of day, not by position (a receiver at rest repeats its position, so
    /// position alone pairs the wrong epochs) and not by date (gpsd's regression dates move
    /// old logs past a GPS week rollover).
    static func timeOfDay(_ report: JSONValue) -> String? {
        guard let time = report["time"]?.stringValue, time.utf8.count >= 20 else { return nil }
        let clock = time.dropFirst(11).prefix(8)
        let fraction = Double("0" + time.dropFirst(19).dropLast()) ?? 0
        let hundredths = Int(whole: (fraction * 100).rounded(), in: 0...100) ?? 0
        return clock + "." + zeroPadded(hundredths, 2)
    }

    /// Per time of day: the last report with a position (the cycle's settled verdict, after
    /// gpsd's per-sentence reports) and the last report of any kind.
    static func epochs(_ reports: [JSONValue]) -> (positioned: [String: JSONValue], last: [String: JSONValue]) {
        var positioned: [String: JSONValue] = [:], last: [String: JSONValue] = [:]
        for report in reports where report["class"]?.stringValue == "TPV" {
            guard let key = timeOfDay(report) else { continue }
            last[key] = report
            if report["lat"]?.numberValue != nil && report["lon"]?.numberValue != nil { positioned[key] = report }
        }
        return (positioned, last)
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

    /// The fixes `lodestone nmea` makes of a log, against gpsd's for the same times of day:
    /// position to 1e-6 degrees, altitude to 1 cm, the fix mode; a position where gpsd had a
    /// report without one counts as a wrong mode.
    static func compare(_ log: String) -> Comparison? {
        guard let input = bytes(directory + log), let check = bytes(directory + log + ".chk") else { return nil }
        var converter = NMEAConverter()
        var ours: [JSONValue] = []
        input.withUnsafeBytes { converter.feed($0) { line in if let v = try? JSONValue.parse(line) { ours.append(v) } } }
        converter.finish { line in if let v = try? JSONValue.parse(line) { ours.append(v) } }
        let theirs = String(decoding: check, as: UTF8.self).split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix(#"{"class":"TPV""#) }.compactMap { try? JSONValue.parse(String($0)) }
        let gpsd = epochs(theirs), lodestone = epochs(ours)
        var result = Comparison()
        for (time, report) in gpsd.positioned.sorted(by: { $0.key < $1.key }) {
            let mine = lodestone.positioned[time]
            result.gpsdPositions += 1
            result.gpsdModes += 1
            if let lat = report["lat"]?.numberValue, let lon = report["lon"]?.numberValue,
                let myLat = mine?["lat"]?.numberValue, let myLon = mine?["lon"]?.numberValue,
                abs(lat - myLat) <= 1.5e-6, abs(lon - myLon) <= 1.5e-6
            {
                result.matchedPositions += 1
            } else {
                result.differences.append("\(time) position")
            }
            if let altitude = report["altMSL"]?.numberValue {
                result.gpsdAltitudes += 1
                if let mine = mine?["altMSL"]?.numberValue, abs(mine - altitude) <= 0.011 {
                    result.matchedAltitudes += 1
                } else {
                    result.differences.append("\(time) altitude \(altitude) against \(mine?["altMSL"]?.numberValue ?? .nan)")
                }
            }
            if let mode = report["mode"]?.numberValue, mode == mine?["mode"]?.numberValue {
                result.matchedModes += 1
            } else {
                result.differences.append("\(time) mode \(report["mode"]?.numberValue ?? .nan) against \(mine?["mode"]?.numberValue ?? .nan)")
            }
        }
        for (time, _) in lodestone.positioned where gpsd.positioned[time] == nil {
            guard let report = gpsd.last[time] else { continue }
            result.gpsdModes += 1
            result.differences.append("\(time) a position where gpsd's mode is \(report["mode"]?.numberValue ?? .nan)")
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
            if !c.differences.isEmpty {
                report.append(
                    "\(log): positions \(c.matchedPositions)/\(c.gpsdPositions), altitudes \(c.matchedAltitudes)/\(c.gpsdAltitudes), "
                        + "modes \(c.matchedModes)/\(c.gpsdModes): " + c.differences.prefix(3).joined(separator: "; "))
            }
        }
        print(
            "NMEA regression against gpsd over \(logs.count) logs: positions \(total.matchedPositions)/\(total.gpsdPositions), "
                + "altitudes \(total.matchedAltitudes)/\(total.gpsdAltitudes), modes \(total.matchedModes)/\(total.gpsdModes)")
        for line in report { print("  " + line) }
        #expect(total.gpsdPositions > 0)
        // Epoch by epoch, matched by time of day: every position, altitude and mode gpsd
        // reports, bar the differences the README lists (at least 99.5% of each).
        #expect(Double(total.matchedPositions) >= 0.995 * Double(total.gpsdPositions))
        #expect(Double(total.matchedAltitudes) >= 0.995 * Double(total.gpsdAltitudes))
        #expect(Double(total.matchedModes) >= 0.995 * Double(total.gpsdModes))
    }
}
