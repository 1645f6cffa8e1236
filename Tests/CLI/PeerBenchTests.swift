import Glibc
import LodestoneCore
@testable import LodestoneBench
import Testing

/// `lodestone bench --peers DIR`: the peers' harnesses compile from the sources beside the
/// project (../shared/peers) and give a figure over a few inputs, and a folder that is not
/// there gives no figures but a note naming it.
@Suite(.serialized) struct PeerBenchTests {
    static let peers: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/../shared/peers"
    }()

    /// Why the harnesses cannot be tried here, or nil when they can.
    static var unavailable: String? {
        if !fileExists(peers + "/minmea/minmea.c") || !fileExists(peers + "/fusion/FusionAhrs.c") { return "../shared/peers is not present" }
        if PeerBench.findProgram("cc") == nil { return "no C compiler (cc)" }
        if PeerBench.findProgram("valgrind") == nil { return "valgrind is not installed" }
        return nil
    }

    @Test func theNMEAHarnessCountsAFigureForAFewSentences() {
        if let reason = Self.unavailable {
            print("skipped: \(reason)")
            return
        }
        // The first ten cycles of the bench's mix.
        let sentences = Array(NMEACostBench.prepared().prefix(70))
        #expect(sentences.count == 70)
        let (figure, note) = PeerBench.minmeaInstructions(peers: Self.peers, sentences: sentences, count: 70)
        #expect(note == nil, "\(note ?? "")")
        let perSentence = figure ?? 0
        #expect(perSentence > 0 && perSentence.isFinite, "\(perSentence) instructions per sentence")
        // A sentence is some hundreds to some thousands of instructions, not the whole program.
        #expect(perSentence < 100_000, "\(perSentence) instructions per sentence")
    }

    @Test func theAHRSHarnessCountsAFigureForAFewUpdates() {
        if let reason = Self.unavailable {
            print("skipped: \(reason)")
            return
        }
        let (figure, note) = PeerBench.fusionInstructions(peers: Self.peers, updates: 500)
        #expect(note == nil, "\(note ?? "")")
        let perUpdate = figure ?? 0
        #expect(perUpdate > 0 && perUpdate.isFinite, "\(perUpdate) instructions per update")
        #expect(perUpdate < 100_000, "\(perUpdate) instructions per update")
    }

    @Test func sourcesThatDoNotCompileGiveANoteNotACrash() {
        guard PeerBench.findProgram("cc") != nil, PeerBench.findProgram("valgrind") != nil else {
            print("skipped: no C compiler (cc) or valgrind")
            return
        }
        let folder = "/tmp/lodestone-broken-peers-\(getpid())"
        defer { removeTree(folder) }
        #expect(makeDirectories(folder + "/minmea"))
        #expect(writeFileAtomically(folder + "/minmea/minmea.h", Array("int not_the_parser;\n".utf8)))
        #expect(writeFileAtomically(folder + "/minmea/minmea.c", Array("this is not C\n".utf8)))
        let (figure, note) = PeerBench.minmeaInstructions(peers: folder, sentences: NMEACostBench.prepared(), count: 70)
        #expect(figure == nil)
        #expect(note?.contains("did not compile") == true, "\(note ?? "no note")")
        #expect(note?.contains(folder + "/minmea") == true, "\(note ?? "no note")")
    }

    @Test func aMissingFolderGivesNoFiguresAndANoteNamingIt() {
        let missing = "/tmp/lodestone-no-peers-\(getpid())"
        let (minmea, minmeaNote) = PeerBench.minmeaInstructions(peers: missing, sentences: NMEACostBench.prepared(), count: 70)
        #expect(minmea == nil)
        #expect(minmeaNote?.contains(missing) == true, "\(minmeaNote ?? "no note")")
        let (fusion, fusionNote) = PeerBench.fusionInstructions(peers: missing, updates: 500)
        #expect(fusion == nil)
        #expect(fusionNote?.contains(missing) == true, "\(fusionNote ?? "no note")")

        // The whole comparison, as `lodestone bench --peers` makes it: null figures, each
        // with its note, and the ratios null with them.
        let figures = PeerBench.run(
            peers: missing, logs: missing + "/logs", ours: PeerBench.Ours(nmea: 1000, nmeaLogs: 1000, attitude: 500),
            wholeProcesses: false, mixSentences: 70, logSentences: 70, updates: 500)
        for comparison in [figures.minmea, figures.fusion] {
            #expect(comparison.peer == nil)
            #expect(comparison.ratio == nil)
            #expect(comparison.note?.contains(missing) == true, "\(comparison.note ?? "no note")")
        }
        #expect(figures.minmeaLogs.peer == nil)
        let json = PeerBench.json(figures)
        #expect(json.contains(#""minmea":{"instructionsPerSentence":null"#), "\(json)")
        #expect(json.contains(#""fusion":{"instructionsPerUpdate":null"#), "\(json)")
        #expect(json.contains(#""note":"the peers' folder \#(missing) does not exist"#), "\(json)")
        #expect(PeerBench.lines(figures).contains("minmea: not measured (the peers' folder \(missing) does not exist"))
    }
}
