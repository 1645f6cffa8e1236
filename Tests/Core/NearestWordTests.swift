@testable import LodestoneCore
import Testing

/// "Did you mean ...?": the nearest known word to a mistyped one, or none.
struct NearestWordTests {
    static let commands = [
        "run", "watch", "status", "lock", "level", "track", "waypoint", "export-all", "import-all",
        "forget-all", "sky", "seasons", "passes", "probe", "config", "completion", "help"
    ]

    @Test(arguments: [
        ("runn", "run"), ("rnu", "run"), ("trak", "track"), ("exprot-all", "export-all"), ("stauts", "status"),
        ("complet", "completion"), ("WATCH", "watch"), ("wayponit", "waypoint"), ("seasosn", "seasons")
    ])
    func aMistypedCommandFindsItsWord(typed: String, meant: String) {
        #expect(NearestWord.to(typed, among: Self.commands) == meant)
    }

    @Test(arguments: ["frobnicate", "x", "", "helicopter", "importall-everything"])
    func nothingCloseIsNoSuggestion(typed: String) {
        #expect(NearestWord.to(typed, among: Self.commands) == nil)
    }

    @Test func twoEquallyNearAreNoSuggestion() {
        // "lovel" is one edit from both "level" and "lovely": neither is offered.
        #expect(NearestWord.to("lovel", among: ["level", "lovely"]) == nil)
        #expect(NearestWord.to("lvel", among: ["level", "lock"]) == "level")
    }

    @Test func theHintReadsAsASentence() {
        #expect(NearestWord.hint("durration", among: ["duration", "display"], prefix: "--") == "; did you mean '--duration'?")
        #expect(NearestWord.hint("zzz", among: ["duration"]).isEmpty)
    }

    @Test func theDistanceCountsASwapOnce() {
        #expect(NearestWord.editDistance(Array("ab".unicodeScalars), Array("ba".unicodeScalars), limit: 3) == 1)
        #expect(NearestWord.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars), limit: 5) == 3)
        #expect(NearestWord.editDistance(Array("abc".unicodeScalars), Array("abcdefgh".unicodeScalars), limit: 2) == 3)
    }
}
