import LodestoneCore

/// The classic resistor wind vane: a magnet on the vane closes one or two of eight reed
/// switches, each switching in its own resistor, so sixteen directions show as sixteen
/// resistances (the half steps are two neighbouring resistors in parallel). Read through a
/// voltage divider with the vane on the low side: V = supply × R / (R + series).
///
/// Decoding picks the direction whose expected voltage is nearest. The two closest pairs of
/// the common kit (225°/247.5° and 0°/292.5°) lie only 5% apart in voltage, so the divider
/// must be read to better than about 2.5% (the supply ratio included): power the divider from
/// the ADC's reference or measure the supply. The resistors' own tolerance matters far less,
/// since a resistor error moves the voltage by only R_series / (R + R_series) of it.
public struct WindVane: Sendable, Equatable {
    /// One vane position: the direction it reads (vane degrees, clockwise from its zero mark)
    /// and the resistance the vane shows there.
    public struct Position: Sendable, Equatable {
        public var degrees: Double
        public var ohms: Double
        public init(degrees: Double, ohms: Double) {
            self.degrees = degrees
            self.ohms = ohms
        }
    }

    public var directions: [Position]
    /// The fixed resistor from the supply to the divider's midpoint.
    public var seriesOhms: Double
    public var supplyVolts: Double
    /// Degrees the vane's zero mark is turned clockwise from true north (set it so that a
    /// wind from the north reads 0°); added to every decoded direction.
    public var northOffset: Double

    public init(directions: [Position], seriesOhms: Double, supplyVolts: Double, northOffset: Double = 0) {
        self.directions = directions
        self.seriesOhms = seriesOhms
        self.supplyVolts = supplyVolts
        self.northOffset = northOffset
    }

    /// The vane sold with most hobby weather-station kits (the three-cup anemometer, vane and
    /// rain gauge set): its data sheet's resistance table, a 10 kΩ series resistor, a 3.3 V supply.
    public static let common = WindVane(
        directions: [
            Position(degrees: 0, ohms: 33_000), Position(degrees: 22.5, ohms: 6_570),
            Position(degrees: 45, ohms: 8_200), Position(degrees: 67.5, ohms: 891),
            Position(degrees: 90, ohms: 1_000), Position(degrees: 112.5, ohms: 688),
            Position(degrees: 135, ohms: 2_200), Position(degrees: 157.5, ohms: 1_410),
            Position(degrees: 180, ohms: 3_900), Position(degrees: 202.5, ohms: 3_140),
            Position(degrees: 225, ohms: 16_000), Position(degrees: 247.5, ohms: 14_120),
            Position(degrees: 270, ohms: 120_000), Position(degrees: 292.5, ohms: 42_120),
            Position(degrees: 315, ohms: 64_900), Position(degrees: 337.5, ohms: 21_880)
        ],
        seriesOhms: 10_000, supplyVolts: 3.3)

    /// The divider's output for a vane resistance.
    public func expectedVolts(ohms: Double) -> Double {
        let total = ohms + seriesOhms
        guard total > 0, total.isFinite else { return supplyVolts }  // an open vane reads the supply
        return supplyVolts * ohms / total
    }

    /// The direction the wind comes from, in degrees from true north in [0, 360), or nil when
    /// the voltage belongs to no position: beyond the lowest or highest expected voltage by
    /// more than half the gap to its neighbour. That is what a broken wire looks like: an
    /// open vane reads the supply, a short reads 0 V.
    public func direction(volts: Double) -> Double? {
        guard volts.isFinite, !directions.isEmpty else { return nil }
        var nearest = 0
        var nearestDistance = Double.infinity
        // The two lowest and two highest expected voltages, for the margins at the ends.
        var lowest = Double.infinity, secondLowest = Double.infinity
        var highest = -Double.infinity, secondHighest = -Double.infinity
        for (index, position) in directions.enumerated() {
            let expected = expectedVolts(ohms: position.ohms)
            let distance = abs(expected - volts)
            if distance < nearestDistance {
                nearest = index
                nearestDistance = distance
            }
            if expected < lowest {
                secondLowest = lowest
                lowest = expected
            } else if expected < secondLowest {
                secondLowest = expected
            }
            if expected > highest {
                secondHighest = highest
                highest = expected
            } else if expected > secondHighest {
                secondHighest = expected
            }
        }
        // With a single position there is no gap: only its own voltage is accepted.
        let lowMargin = secondLowest.isFinite ? (secondLowest - lowest) / 2 : 0
        let highMargin = secondHighest.isFinite ? (highest - secondHighest) / 2 : 0
        guard volts >= lowest - lowMargin, volts <= highest + highMargin else { return nil }
        return Angle.heading(directions[nearest].degrees + northOffset)
    }

    /// The voltage the vane gives for a wind from `degrees` (true north), at the position
    /// nearest that direction: what the simulated board feeds its ADC. The supply voltage
    /// (an open vane) when the table is empty.
    public func volts(forDegrees degrees: Double) -> Double {
        let vaneDegrees = degrees - northOffset
        var best: Position?
        var bestDistance = Double.infinity
        for position in directions {
            let distance = abs(Angle.signed(position.degrees - vaneDegrees))
            if distance < bestDistance {
                best = position
                bestDistance = distance
            }
        }
        guard let best else { return supplyVolts }
        return expectedVolts(ohms: best.ohms)
    }
}
