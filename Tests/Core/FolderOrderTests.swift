import Testing
@testable import LodestoneCore

/// The folders inside a module depend one way, as the modules do: the compiler refuses a loop
/// between modules but not between the folders of one, so this reads the sources. A folder
/// uses another when one of its files names a type declared at the top level of one of the
/// other's files (comments and strings left out, whole words only).
@Suite struct FolderOrderTests {
    /// A folder's use of another: by which files, naming which types.
    struct Edge: Hashable, Comparable {
        var from: String
        var to: String
        static func < (a: Edge, b: Edge) -> Bool { (a.from, a.to) < (b.from, b.to) }
    }

    /// The folder a file is in, below `Sources/<module>` (its first level: `Display/Pages/X`
    /// is in `Display`); a file at the module's top level is in the module's own.
    static func folder(of path: String, module: String) -> String {
        let inside = path.dropFirst((LayerTests.root + "/Sources/" + module + "/").count)
        let parts = inside.split(separator: "/")
        return parts.count > 1 ? String(parts[0]) : "(\(module))"
    }

    /// Every use of one folder's types by another's files: edge -> "File.swift: Type" lines.
    static func edges(module: String) throws -> (edges: [Edge: Set<String>], folders: Set<String>, types: Int) {
        let paths = LayerTests.swiftFiles(in: "Sources/" + module)
        var words: [String: SwiftCodeWords] = [:]
        var owner: [String: String] = [:]
        for path in paths {
            let code = SwiftCodeWords(try readTextFile(path))
            words[path] = code
            for name in code.declaredTypes { owner[name] = folder(of: path, module: module) }
        }
        var edges: [Edge: Set<String>] = [:]
        for path in paths {
            let from = folder(of: path, module: module)
            let file = path.split(separator: "/").suffix(2).joined(separator: "/")
            for name in Set((words[path]?.words ?? []).map(\.text)) {
                guard let to = owner[name], to != from else { continue }
                edges[Edge(from: from, to: to), default: []].insert("\(file): \(name)")
            }
        }
        return (edges, Set(paths.map { folder(of: $0, module: module) }), owner.count)
    }

    /// The folders that reach each other (each loop's members), from the edges.
    static func loops(_ edges: some Collection<Edge>) -> [[String]] {
        var next: [String: Set<String>] = [:]
        for edge in edges { next[edge.from, default: []].insert(edge.to) }
        func reach(_ start: String) -> Set<String> {
            var seen: Set<String> = []
            var stack = [start]
            while let folder = stack.popLast() {
                for to in next[folder] ?? [] where seen.insert(to).inserted { stack.append(to) }
            }
            return seen
        }
        let reaches = Dictionary(uniqueKeysWithValues: next.keys.map { ($0, reach($0)) })
        var loops: Set<[String]> = []
        for (folder, reached) in reaches where reached.contains(folder) {
            loops.insert(reached.filter { reaches[$0]?.contains(folder) == true }.sorted())
        }
        return loops.sorted { $0.joined() < $1.joined() }
    }

    @Test(arguments: [("Runtime", 5), ("Outputs", 8)])
    func foldersDependOneWay(module: String, leastFolders: Int) throws {
        let found = try Self.edges(module: module)
        try #require(found.folders.count >= leastFolders, "only \(found.folders.sorted()) were found in Sources/\(module) under \(LayerTests.root)")
        try #require(found.types >= 30, "only \(found.types) types were read in Sources/\(module)")
        let described = found.edges.keys.sorted().map { "\($0.from) -> \($0.to)" }.joined(separator: ", ")
        for loop in Self.loops(found.edges.keys) {
            let uses = found.edges.filter { loop.contains($0.key.from) && loop.contains($0.key.to) }.sorted { $0.key < $1.key }
                .map { "\($0.key.from) -> \($0.key.to): " + $0.value.sorted().joined(separator: ", ") }
            Issue.record(
                """
                Sources/\(module)'s folders \(loop.joined(separator: ", ")) use each other; move a type to the folder \
                below or split it so the use runs one way:
                \(uses.joined(separator: "\n"))
                all edges: \(described)
                """)
        }
    }

    /// Two folders that use each other are one loop, whatever else they use; a chain is none.
    @Test func loopsAreFoundFromTheEdges() {
        let edges = [("Run", "Output"), ("Output", "Run"), ("Output", "Base"), ("GPSD", "JSON"), ("Socket", "GPSD")].map { Edge(from: $0.0, to: $0.1) }
        #expect(Self.loops(edges) == [["Output", "Run"]])
        #expect(Self.loops(edges.filter { $0.from != "Output" || $0.to != "Run" }).isEmpty)
    }

    /// The reader is checked on the cases that would blur the edges: a type named in a comment,
    /// a string or a word of its own, a private type, a nested one, and code in an interpolation.
    @Test func theReaderTakesCodeAndLeavesCommentsAndStrings() {
        let code = SwiftCodeWords(
            ##"""
            /// Uses `Commented` /* and /* Nested */ Block */
            @MainActor final class Loop: Base {
                struct Inner {}
                let text = "a \(Interpolated.name("\(Deeper.x)")) b \"Quoted\" "
                let raw = #"Raw \#(RawInterpolated.x) \(NotCode)"#
                let block = """
                    Multiline \(MultiInterpolated.y) "Quoted"
                    """
            }
            private struct Hidden {}
            fileprivate enum AlsoHidden {}
            typealias Alias = Int
            let LoopName = 1
            """##)
        let names = Set(code.words.map { $0.text })
        #expect(code.declaredTypes == ["Loop", "Alias"])
        for used in ["Base", "Interpolated", "Deeper", "RawInterpolated", "MultiInterpolated", "LoopName"] {
            #expect(names.contains(used), "\(used) is code")
        }
        for unused in ["Commented", "Nested", "Block", "Quoted", "NotCode", "Multiline", "Raw", "Loo"] {
            #expect(!names.contains(unused), "\(unused) is not code")
        }
    }
}
