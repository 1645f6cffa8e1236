import LodestoneBoard
import LodestoneSim

extension BoardDescription {
    /// The built-in simulated board as a scenario carries it. On the boat its anemometer and
    /// vane stand on the boat's own mast and turn with the hull, as a sailor's do: they measure
    /// the wind over the moving deck, and the true wind is worked out from it (`WindTriangle`).
    /// Elsewhere the station stands ashore, on a fixed mast. A run and the referee take the
    /// board from here; a replay from the recording's header (`vaneAboard`).
    package static func simulatedBoard(in scenario: ScenarioName) -> BoardDescription {
        simulatedBoard(vaneAboard: scenario == .boat)
    }

    package static func simulatedBoard(vaneAboard: Bool) -> BoardDescription {
        var board = simulatedBoard
        board.station.vane?.aboard = vaneAboard
        return board
    }
}
