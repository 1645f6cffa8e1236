import Glibc
import LodestoneRuntime
import Testing
@testable import LodestoneCore
@testable import LodestoneEncoding
@testable import LodestoneOutputs
@testable import LodestoneStorage

/// The output side's shape, checked on the sources: services make reports, only the adapters
/// write wire formats.
@Suite struct LayerTests {
    /// The repository's root, from this file's place in it.
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/Runtime/LayerTests.swift
        return parts.joined(separator: "/")
    }()

    /// The Swift files under `folder`, its subfolders included.
    static func swiftFiles(in folder: String) -> [String] {
        guard let directory = opendir(root + "/" + folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".swift") {
                names.append(root + "/" + folder + "/" + name)
            } else if !name.hasPrefix("."), entry.pointee.d_type == UInt8(DT_DIR) {
                names += swiftFiles(in: folder + "/" + name)
            }
        }
        return names.sorted()
    }

    /// One seam: the adapters (gpsd JSON, NMEA 0183, Signal K, MQTT, the display) take reports
    /// and nothing else. None imports what makes them or reads the sampling side's state.
    @Test func adaptersTakeReportsAlone() throws {
        let files = Self.swiftFiles(in: "Sources/Outputs")
        try #require(files.count >= 40, "the adapters' folder was not found under \(Self.root)")
        for path in files {
            let text = try readTextFile(path)
            for word in [
                "import LodestoneServices", "import LodestoneSampling", "import LodestoneRuntime", "import LodestoneStorage",
                "import LodestoneSettings", "NavigationState"
            ] {
                #expect(!text.contains(word), "\(path) uses \(word): an adapter takes reports")
            }
        }
    }

    @Test func servicesWriteNoWireFormat() throws {
        let files = Self.swiftFiles(in: "Sources/Services")
        try #require(files.count >= 10, "the services' folder was not found under \(Self.root)")
        for path in files {
            let text = try readTextFile(path)
            for word in ["import LodestoneOutputs", "JSONObjectWriter", "GPSDReports", "JSONValue", "nmeaSentence"] {
                #expect(!text.contains(word), "\(path) uses \(word): a service makes reports; an adapter writes them")
            }
        }
    }
}
