/// The one way a number that came from outside (a file, the socket, a device, the user)
/// becomes an integer. Swift's `Int(Double)` traps on NaN, infinities and anything beyond the
/// type's range, so a stored `"points": 1e19` would bring the whole program down; these give
/// nil instead, for the caller to report or replace.
public extension FixedWidthInteger {
    /// `value` when it is a whole number within `range` (and the type's own); nil otherwise.
    init?(whole value: Double, in range: ClosedRange<Self> = Self.min...Self.max) {
        guard let exact = Self(exactly: value), range.contains(exact) else { return nil }
        self = exact
    }

    /// `value` rounded to the nearest whole number, when the result lies within `range` (and
    /// the type's own); nil for NaN, infinities and anything beyond.
    init?(rounding value: Double, in range: ClosedRange<Self> = Self.min...Self.max) {
        let rounded = value.rounded()
        // Compared as Double first: converting first is what traps. Each bound is exact in
        // Double to within its own rounding, and `exactly` decides the edge.
        guard rounded.isFinite, rounded >= Double(range.lowerBound), rounded <= Double(range.upperBound),
            let exact = Self(exactly: rounded), range.contains(exact)
        else { return nil }
        self = exact
    }
}

public extension FixedWidthInteger {
    /// `value` cut toward zero and held within the type's range: the nearest end for anything
    /// beyond it (infinities included), 0 for NaN. For a figure that must become some integer
    /// whatever it is (a position in a table of times), where refusing is not an answer.
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value <= Double(Self.min) {
            self = .min
        } else if value >= Double(Self.max) {
            self = .max
        } else {
            self = Self(exactly: value.rounded(.towardZero)) ?? (value < 0 ? .min : .max)
        }
    }
}
