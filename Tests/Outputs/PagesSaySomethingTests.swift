import LodestoneCore
import LodestoneDomain
@testable import LodestoneOutputs
import LodestoneReports
import Testing

/// Pages that always say something: the position page gives the accuracy (stated by the
/// receiver, else from its HDOP) and the confidence at every size.
@Suite struct PagesSaySomethingTests {
    @Test func thePositionPageGivesTheAccuracyAtEverySize() {
        var model = DisplayFixtures.walk
        model.state.fix.eph = .nan  // no GST: 0.9 HDOP x 5 m
        for (columns, rows) in [(21, 8), (26, 14), (40, 20), (80, 24)] {
            let text = DisplayPage.position.draw(model, columns: columns, rows: rows).text
            #expect(text.contains("±5 m") || text.contains("+-5 m"), "\(columns)x\(rows): \(text)")
            #expect(text.contains("92%"), "\(columns)x\(rows): the confidence: \(text)")
        }
        #expect(DisplayPage.position.draw(model, columns: 80, rows: 24).text.contains("(from HDOP)"))
        model.state.fix.eph = 3.5
        #expect(!DisplayPage.position.draw(model, columns: 80, rows: 24).text.contains("(from HDOP)"))
    }

    /// Magnetic or true as the main heading: the other beside it; magnetic until a fix gives
    /// the declination, whatever was asked; the m key switches.
    @Test func magneticOrTrueAsTheMainHeading() {
        var model = DisplayFixtures.walk  // magnetic 40.6°, true 44.0°
        let trueText = DisplayPage.compass.draw(model, columns: 80, rows: 24).text
        #expect(trueText.contains("44° true") && trueText.contains("Magnetic  41°"), "\(trueText)")
        model.north = .magnetic
        let magnetic = DisplayPage.compass.draw(model, columns: 80, rows: 24).text
        #expect(magnetic.contains("41° magnetic") && magnetic.contains("True      44°"), "\(magnetic)")
        let small = DisplayPage.compass.draw(model, columns: 21, rows: 8).text
        #expect(small.contains("41° mag") && small.contains("TRUE 44°"), "\(small)")
        model.north = .true
        model.state.trueHeading = nil
        #expect(DisplayPage.compass.draw(model, columns: 80, rows: 24).text.contains("41° magnetic"), "no fix yet: magnetic, and said")
        #expect(TerminalKey.decode(Array("m".utf8)) == [.toggleNorth] && HeadingReference.true.toggled == .magnetic)
    }

    /// The pressure graphs from the first minute: each range from its first reading on,
    /// labelled with the span it has; a longer range only once the history outgrows the
    /// shorter one.
    @Test func pressureGraphsShowTheSpanTheyHave() {
        func range(_ label: String, buckets: Int, known: Int) -> (label: String, values: [Double]) {
            (label, (0..<buckets).map { $0 >= buckets - known ? 1013 + Double($0 % 7) / 10 : .nan })
        }
        // Twelve minutes of history: 72 of the hour's 10 s buckets, 12 of 6 h's minutes...
        let young = PressureGraphs.shown([
            range("1h", buckets: 360, known: 72), range("6h", buckets: 360, known: 12),
            range("24h", buckets: 360, known: 3), range("7d", buckets: 336, known: 1)
        ])
        #expect(young.map(\.label) == ["12 min"] && young.first?.values.count == 72, "\(young.map(\.label))")
        // Three hours: the hour whole, then 6 h's three hours.
        let older = PressureGraphs.shown([
            range("1h", buckets: 360, known: 360), range("6h", buckets: 360, known: 180),
            range("24h", buckets: 360, known: 45), range("7d", buckets: 336, known: 6)
        ])
        #expect(older.map(\.label) == ["1 h", "3 h"], "\(older.map(\.label))")
        #expect(PressureGraphs.shown([range("1h", buckets: 360, known: 0)]).isEmpty)
    }
}
