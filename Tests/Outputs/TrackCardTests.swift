import LodestoneCore
import LodestoneHAL
@testable import LodestoneOutputs
import LodestoneReports
import Testing

/// The card a finished track is shared as: a square PNG with the track's name, its day, time
/// and zone, where it began, its route drawn, and the headline figures in the units and
/// language asked for, nothing cut.
@Suite struct TrackCardTests {
    static func panel() -> DisplayModel.TrackPanel {
        var panel = DisplayModel.TrackPanel()
        panel.name = "Harder Kulm"
        for step in 0..<50 {
            let north: Double = 46.6863 + Double(step) * 0.0002
            let east: Double = 7.8635 + Double(step % 7) * 0.0003
            panel.path.append((latitude: north, longitude: east))
        }
        (panel.distance, panel.movingTime, panel.elevationGain, panel.averageSpeed) = (5_230, 5_400, 431, 0.97)
        return panel
    }

    func texts(_ panel: DisplayModel.TrackPanel, units: Units, language: Language) throws -> (texts: [String], clipped: [String]) {
        let frame = MemoryFramebuffer(width: TrackCard.side, height: TrackCard.side, format: .xrgb8888)
        (frame.textRuns, frame.drawnBoxes) = ([], [])
        let zone = try TimeZoneRules("Europe/Zurich")
        TrackCard.draw(panel, started: 1_782_028_800, zone: zone, units: units, language: language, on: frame)
        let runs = frame.textRuns ?? []
        return (runs.map(\.text), runs.filter(\.clipped).map(\.text))
    }

    @Test func theCardSaysWhatAndWhenAndHowFar() throws {
        let metric = try texts(Self.panel(), units: .metric, language: .en)
        let all = metric.texts.joined(separator: " | ")
        for expected in ["Harder Kulm", "2026-06-21", "10:00 CEST", "46°41.1780' N", "5.23 km", "1 h 30 min", "+431 m", "17:11 /km", "Pace"] {
            #expect(all.contains(expected), "\(expected) not on the card: \(all)")
        }
        #expect(metric.clipped.isEmpty, "cut: \(metric.clipped)")
        let german = try texts(Self.panel(), units: .imperial, language: .de).texts.joined(separator: " | ")
        for expected in ["So 2026-06-21", "3.25 mi", "Tempo", "Strecke", "/mi"] {
            #expect(german.contains(expected), "\(expected) not on the German card: \(german)")
        }
        let png = TrackCard.png(Self.panel(), started: 1_782_028_800, zone: .utc, units: .metric, language: .en)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        // The header's width and height (big-endian, after the signature and the IHDR tag).
        #expect(png.count > 24 && Array(png[16..<24]) == [0, 0, 4, 56, 0, 0, 4, 56], "1080 x 1080")
    }
}
