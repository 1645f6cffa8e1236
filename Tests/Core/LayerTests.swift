import Glibc
import Testing
@testable import LodestoneCore

/// The modules' shape, checked on the sources: every import is an edge of Package.swift's graph,
/// the graph keeps the layers, services make reports and only the adapters write wire formats.
@Suite struct LayerTests {
    /// The repository's root, from this file's place in it.
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/Core/LayerTests.swift
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

    /// Each Sources target's name and the targets it depends on, read from Package.swift's
    /// text (`.target(` and `.executableTarget(` entries: `name:`, `dependencies: [...]`,
    /// `path: "Sources/..."`), so the graph checked is the one the package builds. In the
    /// package's order: lowest first.
    static func packageGraph() throws -> [(name: String, folder: String, dependencies: Set<String>)] {
        try targets(kinds: [".target(", ".executableTarget("], under: "Sources/")
    }

    /// Each test target (`.testTarget(` entries, `path: "Tests/..."`) and what it depends on.
    static func testGraph() throws -> [(name: String, folder: String, dependencies: Set<String>)] {
        try targets(kinds: [".testTarget("], under: "Tests/")
    }

    /// The Package.swift entries that open with one of `kinds` and whose path lies `under` a folder.
    static func targets(kinds: [String], under folder: String) throws -> [(name: String, folder: String, dependencies: Set<String>)] {
        let text = try readTextFile(root + "/Package.swift", limit: 1 << 20)
        func quoted(_ text: Substring) -> [String] {
            text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        // Each entry runs from its opener to the next entry's (a test target, a plugin or the end).
        var entries: [Substring] = []
        var rest = Substring(text)
        let openers = [".target(", ".executableTarget(", ".testTarget(", ".plugin(", ".systemLibrary("]
        while let opener = openers.compactMap({ rest.firstRange(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = entries.indices.last { entries[last] = entries[last][..<opener.lowerBound] }
            entries.append(rest[opener.lowerBound...])
            rest = rest[opener.upperBound...]
        }
        var targets: [(name: String, folder: String, dependencies: Set<String>)] = []
        for entry in entries where kinds.contains(where: { entry.hasPrefix($0) }) {
            guard let name = entry.firstRange(of: "name: \"").map({ entry[$0.upperBound...].prefix { $0 != "\"" } }),
                let path = entry.firstRange(of: "path: \"").map({ entry[$0.upperBound...].prefix { $0 != "\"" } }),
                path.hasPrefix(folder)
            else { continue }
            var dependencies: Set<String> = []
            if let list = entry.firstRange(of: "dependencies: [") {
                dependencies = Set(quoted(entry[list.upperBound...].prefix { $0 != "]" }))
            }
            targets.append((String(name), String(path.dropFirst(folder.count)), dependencies))
        }
        return targets
    }

    /// The modules a file imports (`import X`, `@testable import X`, `import struct X.Y`...).
    static func imports(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            var words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
            if let first = words.first, ["public", "package", "internal", "private", "fileprivate"].contains(first) { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { return nil }
            let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
            let module = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            return String(module.prefix { $0 != "." })
        }
    }

    /// Every `import` of every Sources file names a target its own target depends on in
    /// Package.swift (or a module outside the package: Glibc, Synchronization): an edge the
    /// package's graph does not draw fails here, even where SwiftPM would let it build through
    /// another target's dependencies.
    @Test func everyImportIsAnEdgeOfThePackageGraph() throws {
        let graph = try Self.packageGraph()
        try #require(graph.count >= 15, "Package.swift's targets were not read: \(graph.map(\.name))")
        let names = Set(graph.map(\.name))
        var files = 0
        for target in graph {
            for path in Self.swiftFiles(in: "Sources/" + target.folder) {
                files += 1
                for module in Self.imports(in: try readTextFile(path)) where names.contains(module) && module != target.name {
                    #expect(target.dependencies.contains(module), "\(path) imports \(module), which \(target.name) does not depend on in Package.swift")
                }
            }
        }
        #expect(files >= 500, "only \(files) source files were read")
    }

    /// The tests mirror the modules: every `import` of a test target's files names a target it
    /// depends on in Package.swift, and a test target depends on its module (`Tests/HAL` tests
    /// LodestoneHAL, `Tests/CLI` the executable) and the targets before it in Package.swift, the
    /// layers below, alone. A module's tests then build and run without the layers above it.
    @Test func everyTestImportIsADependencyOfItsTestTarget() throws {
        let graph = try Self.packageGraph()
        let order = graph.map(\.name)
        let names = Set(order)
        let tests = try Self.testGraph()
        try #require(tests.count >= 15, "Package.swift's test targets were not read: \(tests.map(\.name))")
        var files = 0
        for target in tests {
            let module = target.folder == "CLI" ? "lodestone" : "Lodestone" + target.folder
            let place = try #require(order.firstIndex(of: module), "\(target.name) tests \(module), which is not a target")
            let below = Set(order[...place])
            #expect(target.dependencies.contains(module), "\(target.name) does not depend on \(module)")
            for dependency in target.dependencies where names.contains(dependency) {
                #expect(below.contains(dependency), "\(target.name) depends on \(dependency), a layer above \(module)")
            }
            for path in Self.swiftFiles(in: "Tests/" + target.folder) {
                files += 1
                for module in Self.imports(in: try readTextFile(path)) where names.contains(module) {
                    #expect(target.dependencies.contains(module), "\(path) imports \(module), which \(target.name) does not depend on in Package.swift")
                }
            }
        }
        #expect(files >= 200, "only \(files) test files were read")
    }

    /// The layering the graph must keep (docs/design.md): Board under Sampling and Settings;
    /// Sampling (the real-time side) under everything that talks to people or networks and free
    /// of the simulator; Settings free of the adapters.
    @Test func theGraphKeepsTheLayers() throws {
        let graph = Dictionary(try Self.packageGraph().map { ($0.name, $0.dependencies) }) { first, _ in first }
        let above: [String: Set<String>] = [
            "LodestoneBoard": [
                "LodestoneHAL", "LodestoneSim", "LodestoneReports", "LodestoneOutputs", "LodestoneSettings", "LodestoneStorage", "LodestoneSampling",
                "LodestoneServices", "LodestoneRuntime"
            ],
            "LodestoneSampling": [
                "LodestoneSim", "LodestoneReports", "LodestoneOutputs", "LodestoneSettings", "LodestoneStorage", "LodestoneServices", "LodestoneRuntime"
            ],
            "LodestoneSettings": ["LodestoneOutputs", "LodestoneStorage", "LodestoneSampling", "LodestoneServices", "LodestoneRuntime"],
            "LodestoneStorage": ["LodestoneOutputs", "LodestoneSettings", "LodestoneSampling", "LodestoneServices", "LodestoneRuntime"],
            "LodestoneOutputs": ["LodestoneSettings", "LodestoneStorage", "LodestoneSampling", "LodestoneServices", "LodestoneRuntime"]
        ]
        for (module, forbidden) in above {
            let dependencies = try #require(graph[module], "\(module) is not in Package.swift")
            #expect(dependencies.isDisjoint(with: forbidden), "\(module) depends on \(dependencies.intersection(forbidden).sorted())")
        }
    }

    /// Storage writes its own formats (the alert files through `AlertFileFormat`, the snapshots
    /// in Domain's snapshot document): no Storage file imports the adapters, and none may start to.
    @Test func storageImportsNoAdapter() throws {
        let files = Self.swiftFiles(in: "Sources/Storage")
        try #require(files.count >= 10, "the stores' folder was not found under \(Self.root)")
        for path in files {
            #expect(!Self.imports(in: try readTextFile(path)).contains("LodestoneOutputs"), "\(path) imports LodestoneOutputs")
        }
    }
}
