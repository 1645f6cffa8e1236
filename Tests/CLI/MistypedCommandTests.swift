import Glibc
import LodestoneCore
import Testing

/// A mistyped command, option, action or board says the nearest known one and exits 2 (a
/// board that cannot be found exits 1, as any start that fails).
@Suite(.serialized) struct MistypedCommandTests {
    let binary = EndToEndTests()

    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        binary.finish(try binary.spawn(arguments))
    }

    @Test(arguments: [
        (["runn"], "did you mean 'run'?"), (["help", "runn"], "did you mean 'run'?"),
        (["stauts"], "did you mean 'status'?"), (["run", "--durration", "3"], "did you mean '--duration'?"),
        (["track", "lst"], "did you mean 'list'?"), (["photo", "tkae"], "did you mean 'take'?"),
        (["track", "list", "--sortt", "pace"], "did you mean '--sort'?")
    ])
    func theNearestKnownWordIsOffered(arguments: [String], hint: String) throws {
        let (status, output) = try run(arguments)
        #expect(status == 2, "\(arguments): \(output)")
        #expect(output.contains(hint), "\(arguments): \(output)")
        #expect(output.split(separator: "\n").count == 1, "one line: \(output)")
    }

    @Test func helpOfAKnownCommandStillExitsZero() throws {
        let (status, output) = try run(["help", "track"])
        #expect(status == 0)
        #expect(output.contains("Usage: lodestone track"))
    }

    @Test func aBoardIsFoundByItsName() throws {
        // The source tree's boards/ (the tests run from the package's folder).
        guard fileExists("boards/sim-turned.json") else {
            Issue.record("the tests do not run from the package's folder: no boards/sim-turned.json")
            return
        }
        let socket = "/tmp/lodestone-board-name-\(getpid()).sock"
        let (status, output) = try run([
            "run", "--board", "sim-turned", "--duration", "1", "--display", "none",
            "--socket", socket, "--data-dir", "/tmp/lodestone-board-name-\(getpid())", "--no-adaptive"
        ])
        #expect(status == 0, "\(output)")
        let (missing, said) = try run([
            "run", "--board", "sim-turnd", "--duration", "1", "--display", "none",
            "--socket", socket, "--data-dir", "/tmp/lodestone-board-name-\(getpid())"
        ])
        #expect(missing == 1)
        #expect(said.contains("did you mean 'sim-turned'?") && said.contains("raspberry-pi-4"), "\(said)")
    }
}
