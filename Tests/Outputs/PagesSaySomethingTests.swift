import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import Testing

/// Pages that always say something: the position page gives the accuracy (stated by the
/// receiver, else from its HDOP) and the confidence at every size.
@Suite struct PagesSaySomethingTests {
    @Test func thePositionPageGivesTheAccuracyAtEverySize() {
        var model = DisplayFixtures.walk
        model.state.fix.eph = .nan   // no GST: 0.9 HDOP x 5 m
        for (columns, rows) in [(21, 8), (26, 14), (40, 20), (80, 24)] {
            let text = DisplayPage.position.draw(model, columns: columns, rows: rows).text
            #expect(text.contains("±5 m") || text.contains("+-5 m"), "\(columns)x\(rows): \(text)")
            #expect(text.contains("92%"), "\(columns)x\(rows): the confidence: \(text)")
        }
        #expect(DisplayPage.position.draw(model, columns: 80, rows: 24).text.contains("(from HDOP)"))
        model.state.fix.eph = 3.5
        #expect(!DisplayPage.position.draw(model, columns: 80, rows: 24).text.contains("(from HDOP)"))
    }
}
