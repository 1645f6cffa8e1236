import LodestoneOutputs
import LodestoneReports
import Testing

/// Every page's header says a track records (REC beside the clock) or is paused, whichever
/// page is shown, at every size; with no recording it says nothing of one.
@Suite struct RecordingMarkTests {
    static func model(_ state: String?) -> DisplayModel {
        var model = DisplayFixtures.walk
        model.title = "simulated board"
        model.clock = "08:00"
        if let state {
            var track = DisplayModel.TrackPanel()
            track.state = state
            model.track = track
        } else {
            model.track = nil
        }
        return model
    }

    @Test(arguments: DisplayPage.allCases)
    func everyHeaderSaysARecordingRecords(page: DisplayPage) {
        for (columns, rows) in [(21, 8), (40, 15), (53, 20), (80, 24), (100, 30)] {
            let recording = page.draw(Self.model("recording"), columns: columns, rows: rows).line(0)
            #expect(recording.hasSuffix("REC 08:00"), "\(page) at \(columns): \(recording)")
            let paused = page.draw(Self.model("paused"), columns: columns, rows: rows).line(0)
            #expect(paused.hasSuffix((columns >= 30 ? "paused" : "II") + " 08:00"), "\(page) at \(columns): \(paused)")
            for state in [nil, "stopped"] {
                let idle = page.draw(Self.model(state), columns: columns, rows: rows).line(0)
                #expect(!idle.contains("REC") && !idle.contains("paused") && idle.hasSuffix(" 08:00"), "\(page) at \(columns): \(idle)")
            }
        }
    }

    @Test func theMarkIsInTheWarningInkAndKeepsThePageNumber() {
        let screen = DisplayPage.barometer.draw(Self.model("recording"), columns: 40, rows: 15)
        let line = screen.line(0)
        #expect(line.hasPrefix("BAROMETER  4/12 ") && line.contains("simulated"), "\(line)")
        let column = 40 - "REC 08:00".count
        #expect(screen.cells[column].ink == .warning && screen.cells[column].character == "R")
    }
}
