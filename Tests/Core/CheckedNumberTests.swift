import LodestoneCore
import Testing

/// Numbers from outside become integers without ever trapping.
@Suite struct CheckedNumberTests {
    @Test func wholeNumbersWithinRangeAndNothingElse() {
        #expect(Int(whole: 9600) == 9600)
        #expect(Int(whole: -3) == -3)
        for hostile in [1e19, -1e19, 9_223_372_036_854_775_808.0, 1.797e308, -.infinity, .infinity, .nan, 2.5, -0.5] {
            #expect(Int(whole: hostile) == nil, "\(hostile)")
        }
        #expect(UInt64(whole: -1) == nil)
        #expect(UInt8(whole: 256) == nil && UInt8(whole: 255) == 255)
        #expect(Int(whole: 1024, in: 0...1023) == nil && Int(whole: 1023, in: 0...1023) == 1023)
    }

    @Test func roundingWithinRangeAndNothingElse() {
        #expect(Int(rounding: 41.6) == 42)
        #expect(Int(rounding: -0.4) == 0)
        #expect(UInt64(rounding: -1.2) == nil)

        #expect(Int(rounding: 9.3e18) == nil, "beyond Int's 9.22e18")
        #expect(Int(rounding: .nan) == nil && Int(rounding: .infinity) == nil)
        #expect(Int(rounding: 100.4, in: 0...100) == 100 && Int(rounding: 100.6, in: 0...100) == nil)
    }

    @Test func aCalendarDateIsWrittenForAnyInstantWithoutTrapping() {
        #expect(CivilTime(unixSeconds: 1e308).year == 9999)
        #expect(CivilTime(unixSeconds: -1e308).year == 1)
        #expect(CivilTime(unixSeconds: .nan).year == 1970)
        #expect(CivilTime(unixSeconds: 1_782_028_800).year == 2026)
    }
}
