import LodestoneReports
import Testing

/// The pages' order, which the button and the arrow keys step through.
@Suite struct DisplayPageOrderTests {
    @Test func pagesStepRoundInOrder() {
        #expect(
            DisplayPage.compass.next == .position && DisplayPage.health.next == .connect && DisplayPage.connect.next == .compass
                && DisplayPage.compass.previous == .connect)
    }
}
