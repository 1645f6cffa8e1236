import Glibc
import LodestoneOutputs
import Testing
@testable import LodestoneCore
@testable import LodestoneEncoding

/// `lodestone eclipses`, run as a user would: the agreed JSON keys and the usage errors.
@Suite struct EclipsesCommandTests {
    /// The `lodestone` built beside this test bundle (whatever scratch path built both), else
    /// the one the end-to-end tests use.
    static var executable: String {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { readlink("/proc/self/exe", $0, buffer.count - 1) } ?? -1
        }
        if n > 0 {
            let path = String(decoding: bytes.prefix(n), as: UTF8.self)
            var directory = path
            // The test bundle's own directory: .../debug/LodestonePackageTests.xctest.
            while let slash = directory.lastIndex(of: "/") {
                directory = String(directory[..<slash])
                let candidate = directory + "/lodestone"
                if access(candidate, X_OK) == 0 { return candidate }
                if directory.hasSuffix("/debug") || directory.hasSuffix("/release") || directory.isEmpty { break }
            }
        }
        return EndToEndTests.executable
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let end = EndToEndTests()
        return end.finish(try end.spawnProgram(executable, arguments))
    }

    /// The eclipses of 2026 from NASA's canons (Tests/Domain/Vectors/*_canon.csv): annular solar
    /// 02-17 12:11:51, total lunar 03-03 11:33:37, total solar 08-12 17:45:51 (total in northern
    /// Spain: Burgos sees 104 s of totality by Spain's Instituto Geográfico Nacional), partial
    /// lunar 08-28 04:12:49 UT.
    @Test func jsonListsTheEclipsesWithTheAgreedKeys() throws {
        let (status, output) = try Self.run([
            "eclipses", "--from", "2026-01-01", "--count", "4", "--lat", "42.3439", "--lon", "-3.6969",
            "--tz", "Europe/Madrid", "--json"
        ])
        #expect(status == 0, "\(output)")
        let items = try #require(try JSONValue.parse(output).arrayValue, "\(output.prefix(300))")
        #expect(items.count == 4)
        let expected: [(String, String, String)] = [
            ("solar", "annular", "2026-02-17T12:1"), ("lunar", "total", "2026-03-03T11:3"),
            ("solar", "total", "2026-08-12T17:4"), ("lunar", "partial", "2026-08-28T04:1")
        ]
        for (item, (kind, type, greatest)) in zip(items, expected) {
            #expect(item["kind"]?.stringValue == kind && item["type"]?.stringValue == type, "\(item)")
            let stamp = item["greatest"]?.stringValue ?? ""
            #expect(stamp.hasPrefix(greatest) && stamp.hasSuffix("Z") && stamp.count == 20, "\(stamp)")
            #expect(item["magnitude"]?.numberValue?.isFinite == true)
            let local = try #require(item["local"], "local")
            #expect(local["visible"]?.boolValue != nil)
            if kind == "lunar" { #expect(item["penumbralMagnitude"]?.numberValue != nil && local["moonAltitudeAtGreatest"]?.numberValue != nil) }
        }
        // Burgos is inside the path of totality of 2026-08-12, the Sun low in the west.
        let august = try #require(items.dropFirst(2).first?["local"])
        #expect(august["type"]?.stringValue == "total" && august["visible"]?.boolValue == true, "\(august)")
        for key in ["c1", "c2", "max", "c3", "c4"] {
            #expect(august["contacts"]?[key]?.stringValue?.hasSuffix("+02:00") == true, "\(key) in \(august)")
        }
        #expect(august["obscuration"]?.numberValue == 1 && august["sunAltitudeAtMax"]?.numberValue != nil)
    }

    @Test func withoutAPlaceLocalIsNull() throws {
        let (status, output) = try Self.run(["eclipses", "--from", "2027-08-01", "--count", "1", "--json"])
        #expect(status == 0)
        let item = try #require(try JSONValue.parse(output).arrayValue?.first)
        #expect(item["local"] == .null && item["kind"]?.stringValue == "solar" && item["type"]?.stringValue == "total")
        #expect(abs((item["magnitude"]?.numberValue ?? 0) - 1.079) < 0.01)
        let (plain, text) = try Self.run(["eclipses", "--from", "2027-08-01", "--count", "2"])
        #expect(plain == 0 && text.contains("Total solar eclipse, greatest 2027-08-02 10:0"), "\(text)")
    }

    @Test(arguments: [
        (["--lat", "40"], "the place needs both --lat"),
        (["--elevation", "300"], "the place needs both --lat"),
        (["--count", "0"], "--count must be a whole number from 1 to 100"),
        (["--from", "2026-02-30"], "--from takes a calendar date"),
        (["--from", "2200-01-01"], "--from 2200-01-01 is outside 1900-2100"),
        (["--lat", "95", "--lon", "0"], "--lat must be a number"),
        (["soon"], "unexpected argument 'soon'")
    ])
    func refusesBadOptions(words: [String], expected: String) throws {
        let (status, output) = try Self.run(["eclipses"] + words)
        #expect(status == 2 && output.contains(expected), "\(words): \(output)")
    }
}
