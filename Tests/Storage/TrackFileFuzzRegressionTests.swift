import Testing
@testable import LodestoneStorage

/// Track headers the fuzz target found crashing the reader, kept so they stay fixed.
@Suite struct TrackFileFuzzRegressionTests {
    @Test func aHeaderWithTheStartBeforeTheNameIsRead() throws {
        let parsed = try #require(TrackFile.parse("# lodestone track 1 started=1782028800 x name=Walk\n"))
        #expect(parsed.started == 1_782_028_800)
    }

    @Test func aStartNoCalendarCanWriteIsUnknown() throws {
        let parsed = try #require(TrackFile.parse("# lodestone track 1 name=Walk started=1e308\n"))
        #expect(parsed.started == 0)
        #expect(TrackFile.header(name: parsed.name, started: parsed.started, tags: parsed.tags).hasPrefix(TrackFile.recordMagic))
    }
}
