import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs
import Testing

@Suite struct FramebufferViewTests {
    @Test func unknownValuesShowAsDashesNotZeros() {
        let lines = FramebufferView().lines(NavigationState())
        #expect(lines[0].text == "--°")
        #expect(lines.contains { $0.text.hasPrefix("NO FIX") })
        #expect(!lines.contains { $0.text.contains(" 0.0") })
    }

    @Test func aDegradedSensorIsNamedInTheWarningColour() {
        var state = NavigationState()
        state.imuHealth = .ok
        state.barometerHealth = .degraded
        let last = FramebufferView().lines(state).last
        #expect(last?.text == "CHECK BARO")
        #expect(last?.colour == .warning)
    }

    @Test func promptsForCalibrationWhenTheHeadingIsUncertain() {
        var state = NavigationState()
        state.attitude = TiltCompensatedHeading(roll: 0, pitch: 0, magneticHeading: 350)
        state.headingAccuracy = 10
        let uncalibrated = FramebufferView(calibration: "uncalibrated").lines(state).map(\.text)
        #expect(uncalibrated.contains("HEADING +-10°: CALIBRATE"))
        #expect(uncalibrated[0] == "350°M N")
        state.trueHeading = 353.6
        state.headingAccuracy = 0.8
        let good = FramebufferView(calibration: "good").lines(state).map(\.text)
        #expect(good[0] == "354° N")
        #expect(!good.contains { $0.contains("CALIBRATE") })
        #expect(FramebufferView(calibration: "inProgress", calibrationProgress: 0.42).lines(state).contains { $0.text == "CALIBRATING 42%: FIGURE 8S" })
    }

    /// The heading line is drawn large, in amber, at the top of a 320 x 240 panel and of a
    /// 128 x 64 mono one.
    @Test(arguments: [(320, 240, PixelFormat.rgb565), (128, 64, .mono)])
    func drawsTheHeadingAtTheTop(width: Int, height: Int, format: PixelFormat) throws {
        let path = "/tmp/lodestone-view-\(getpid())-\(width).raw"
        defer { unlink(path) }
        let screen = try FileFramebuffer(path: path, width: width, height: height, format: format)
        var state = NavigationState()
        state.attitude = TiltCompensatedHeading(specificForce: Vector3(0, 0, -9.81), field: Vector3(20, 0, 40))
        FramebufferView().render(state, on: screen)
        var litTop = 0, litBottomRight = 0
        for y in 0..<height {
            for x in 0..<width {
                let p = screen.get(x: x, y: y)
                let lit = Int(p.red) + Int(p.green) + Int(p.blue) > 300
                if lit && y < height / 4 { litTop += 1 }
                if lit && y > height * 15 / 16 && x > width * 15 / 16 { litBottomRight += 1 }
            }
        }
        #expect(litTop > 20, "heading pixels: \(litTop)")
        #expect(litBottomRight == 0)
        if format == .rgb565 {
            var amber = 0
            for y in 0..<height / 4 { for x in 0..<width where screen.get(x: x, y: y).red > 200 && screen.get(x: x, y: y).blue < 40 { amber += 1 } }
            #expect(amber > 20)
        }
    }

    /// On a large screen the history graphs fill the space under the text: a rising series
    /// draws taller columns on its right than on its left.
    @Test func historyGraphsAreDrawnUnderTheText() throws {
        let path = "/tmp/lodestone-view-graphs-\(getpid()).raw"
        defer { unlink(path) }
        let screen = try FileFramebuffer(path: path, width: 480, height: 480, format: .xrgb8888)
        var view = FramebufferView()
        view.graphs = [("1H", (0..<60).map { 1000 + Double($0) / 10 })]
        view.render(NavigationState(), on: screen)
        func amberColumn(_ x: Int) -> Int {
            (0..<480).filter { y in let p = screen.get(x: x, y: y); return p.red == 255 && p.green == 191 && p.blue == 0 }.count
        }
        let left = amberColumn(12), right = amberColumn(440)
        #expect(left >= 1 && right > left + 20, "left \(left) right \(right)")
    }
}
