@testable import LodestoneCore
import Testing

/// Inputs the fuzz targets (scripts/fuzz) found crashing the readers, kept so they stay fixed.
@Suite struct FuzzRegressionTests {
    /// A TZif header whose 32-bit counts read as negative (or larger than the file) once made
    /// the offsets leave the file.
    @Test func aTimeZoneFileWithImpossibleCountsIsRefused() {
        var header = Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
        for count: UInt32 in [0, 0, 0, 0xFFFF_FFF0, 1, 4] {
            header += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
        }
        #expect(TimeZoneRules.parse(header + [UInt8](repeating: 0, count: 64)) == nil)
        var huge = header
        huge.replaceSubrange(32..<36, with: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(TimeZoneRules.parse(huge + [UInt8](repeating: 0, count: 64)) == nil)
    }

    /// A footer rule with hours beyond any offset, or a week beyond a month, once overflowed.
    @Test func aPosixRuleBeyondItsRangesIsRefused() {
        #expect(PosixRule("CET-99999999999999999999") == nil)
        #expect(PosixRule("CET-1CEST,M3.5.0/99999999999999999,M10.5.0/3") == nil)
        #expect(PosixRule("CET-1CEST,M3.9999999999999999.0,M10.5.0/3") == nil)
        #expect(PosixRule("CET-1CEST,M3.5.0,M10.5.0/3")?.daylight == 7200)
        #expect(PosixRule("<+0330>-3:30")?.standard == 12_600)
    }
}
