import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import Testing

/// The display pages as a person reads them, on an 80 x 24 terminal and a 21 x 8 mono LCD.
@Suite struct DisplayPageTests {
    @Test(arguments: DisplayPage.allCases)
    func everyPageFitsBothScreens(page: DisplayPage) {
        for (columns, rows) in [(80, 24), (21, 8), (26, 15), (40, 20), (132, 43)] {
            let screen = page.draw(DisplayFixtures.walk, columns: columns, rows: rows, keys: true)
            print("\(page) \(columns)x\(rows)\n" + screen.text)
            #expect(screen.line(0).hasPrefix(page.title))
            #expect((1..<rows).contains { !screen.line($0).isEmpty }, "\(page) is empty at \(columns)x\(rows)")
        }
    }
}
