import LodestoneCore
import LodestoneHAL
@testable import LodestoneOutputs
import LodestoneReports
import Testing

/// With no recording open, the track page says how to start one and shows the last track
/// saved: its name, date, distance, moving time and climb, on the terminal and on a panel.
@Suite struct TrackStoppedTests {
    static func model(_ language: Language = .en) -> DisplayModel {
        var model = DisplayFixtures.walk
        model.language = language
        var track = DisplayModel.TrackPanel()
        track.state = "stopped"
        track.last = .init(name: "Lake walk", started: "Sun 06-21 08:00", distance: 5_230, movingTime: 4_980, climb: 212)
        model.track = track
        return model
    }

    @Test func theLastTrackUnderTheWayToStart() {
        let text = DisplayPage.track.draw(Self.model(), columns: 60, rows: 20).text
        #expect(text.contains("Last track: Lake walk") && text.contains("Sun 06-21 08:00") && text.contains("5.23 km"), "\(text)")
        #expect(text.contains("1 h 23 min") && text.contains("+212 m"), "\(text)")
        for (width, height) in [(320, 240), (800, 480)] {
            let frame = PageFitTests.frame(.track, Self.model(), width: width, height: height)
            let shown = frame.runs.map(\.text).joined(separator: "\n")
            #expect(shown.contains("Last track: Lake walk") && shown.contains("5.23 km") && !frame.runs.contains(where: \.clipped), "\(shown)")
            print("track stopped \(width)x\(height): used \(frame.used)")
        }
        let german = PageFitTests.frame(.track, Self.model(.de), width: 800, height: 480).runs.map(\.text).joined(separator: "\n")
        #expect(german.contains("Letzter Track: Lake walk") && german.contains("Strecke"), "\(german)")
    }
}
