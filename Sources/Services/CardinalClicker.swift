import LodestoneCore

/// A click each time the heading passes north, east, south or west while turning: a person
/// can turn to a cardinal point by ear. 2° of hysteresis, so wobbling on a point clicks once.
package struct CardinalClicker: Sendable {
    private var sector: Int?

    /// The new heading (degrees); true when it has just passed a cardinal point.
    package mutating func update(heading: Double?) -> Bool {
        guard let heading, heading.isFinite else { sector = nil; return false }
        // The quadrant, counted from each cardinal point; a change needs 2° past the point.
        let shifted = Angle.heading(heading)
        let quadrant = Int(shifted / 90) % 4
        guard let current = sector else { sector = quadrant; return false }
        guard quadrant != current else { return false }
        let intoQuadrant = shifted - Double(quadrant) * 90  // 0..90 from its start
        let crossedForward = (quadrant == (current + 1) % 4) && intoQuadrant >= 2
        let crossedBack = (quadrant == (current + 3) % 4) && intoQuadrant <= 88
        guard crossedForward || crossedBack || (quadrant + 2) % 4 == current else { return false }
        sector = quadrant
        return true
    }

    package init() {

    }
}
