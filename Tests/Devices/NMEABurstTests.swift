import LodestoneCore
import LodestoneDevices
import Testing

/// A quiet line after a burst ends its cycle: the first fix comes with the first burst, each
/// cycle is handed out once, and the closing sentence learned from the quiet line works on.
@Suite struct NMEABurstTests {
    let helper = NMEAParserTests()

    @Test func theFirstBurstIsAFixWhenTheLineGoesQuiet() throws {
        var framer = NMEAFramer(), parser = NMEAParser()
        let first = helper.cycle("123519.00")
        #expect(helper.parse(first, framer: &framer, parser: &parser).isEmpty, "no second burst yet: nothing closes the cycle")
        let quiet = parser.endOfBurst()
        let fix = try #require(quiet)
        #expect(fix.mode == .threeD && abs(fix.latitude - (48 + 7.038 / 60)) < 1e-9)
        let again = parser.endOfBurst()
        #expect(again == nil, "a cycle is handed out once")
        // The next burst: its closing sentence (learned from the quiet line) hands it out, once.
        let second = helper.parse(helper.cycle("123520.00"), framer: &framer, parser: &parser)
        #expect(second.count == 1 && second.first?.latitude == fix.latitude)
        let afterClosing = parser.endOfBurst()
        #expect(afterClosing == nil, "already handed out by its closing sentence")
        // And the burst after: no fix of the earlier cycle comes twice.
        let third = helper.parse(helper.cycle("123521.00"), framer: &framer, parser: &parser)
        #expect(third.count == 1)
    }

    @Test func aQuietLineWithoutAPositionIsNoFix() {
        var framer = NMEAFramer(), parser = NMEAParser()
        _ = helper.parse(helper.nmea("GPGSV,1,1,01,04,56,046,45"), framer: &framer, parser: &parser)
        let quiet = parser.endOfBurst()
        #expect(quiet == nil)
    }
}
