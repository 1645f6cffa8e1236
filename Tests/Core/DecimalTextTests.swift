import LodestoneCore
import Testing

/// The one number formatter: fixed places for NMEA and tables, compact for JSON and messages.
@Suite struct DecimalTextTests {
    @Test(arguments: [
        (0.05, 2, "0.05"), (-0.0001, 3, "0"), (47.376905334, 9, "47.376905334"), (-8.5417, 4, "-8.5417"),
        (2.5, 0, "3"), (-2.5, 0, "-3"), (1013.25, 1, "1013.3"), (408.1, 3, "408.1"), (0.000012, 6, "0.000012"),
        (1e15, 3, "1000000000000000"), (15_000_000_000_000, 6, "15000000000000"), (99.999, 2, "100"), (0.1 + 0.2, 3, "0.3"),
        (123_456_789.125, 2, "123456789.13"), (-0.5, 0, "-1"), (7, 3, "7")
    ])
    func compactDropsTrailingZerosAndNeverUsesAnExponent(value: Double, decimals: Int, expected: String) {
        #expect(DecimalText.compact(value, decimals) == expected)
    }

    @Test func compactAgreesWithTheFixedPlacesItRoundsTo() {
        // Over a spread of values and places: compact is format with the trailing zeros (and a
        // bare point) taken off.
        var value = -1234.5678
        while value < 1234.5678 {
            for decimals in 0...6 {
                var fixed = DecimalText.format(value, decimals)
                if fixed.contains(".") {
                    while fixed.hasSuffix("0") { fixed.removeLast() }
                    if fixed.hasSuffix(".") { fixed.removeLast() }
                }
                if fixed == "-0" { fixed = "0" }
                #expect(DecimalText.compact(value, decimals) == fixed, "\(value) to \(decimals) places")
            }
            value += 1.7371
        }
    }

    /// Three places (most of what the JSON holds) take a way of their own: it writes what the
    /// fixed places write, trailing zeros off, for small and large values alike.
    @Test func threePlacesAgreeWithTheFixedPlacesOnBothSidesOfTheShortWay() {
        func trimmed(_ value: Double) -> String {
            var fixed = DecimalText.format(value, 3)
            if fixed.contains(".") {
                while fixed.hasSuffix("0") { fixed.removeLast() }
                if fixed.hasSuffix(".") { fixed.removeLast() }
            }
            return fixed == "-0" ? "0" : fixed
        }
        var checked = 0
        for base in [0.0, 0.0005, 0.9995, 9.9995, 999_999.9994, 999_999.9996, 1_000_000.0005, 1_999_999.9995] {
            for step in -40...40 {
                for sign in [1.0, -1.0] {
                    let value = sign * (base + Double(step) * 0.000_25)
                    #expect(DecimalText.compact(value, 3) == trimmed(value), "\(value)")
                    checked += 1
                }
            }
        }
        #expect(checked == 8 * 81 * 2)
        #expect(DecimalText.compact(0.1 + 0.2, 3) == "0.3" && DecimalText.compact(-9.8, 3) == "-9.8" && DecimalText.compact(12.05, 3) == "12.05")
    }

    @Test(arguments: [0, 7, -7, 1_000_000, Int.max, Int.min + 1])
    func integersAreWrittenWhole(value: Int) {
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer -> String in
            guard let base = buffer.baseAddress else { return "" }
            return String(decoding: UnsafeBufferPointer(start: base, count: DecimalText.writeInteger(value, to: base)), as: UTF8.self)
        }
        #expect(written == String(value))
    }

    @Test func timesAreWrittenToTheMillisecond() {
        #expect(CivilTime(unixSeconds: 1_782_028_801.2499).iso8601 == "2026-06-21T08:00:01.250Z")
        #expect(CivilTime(unixSeconds: 1_782_028_859.9996).iso8601 == "2026-06-21T08:01:00.000Z")
        #expect(CivilTime(unixSeconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(CivilTime(unixSeconds: -62_135_596_800).iso8601 == "0001-01-01T00:00:00.000Z")
    }
}
