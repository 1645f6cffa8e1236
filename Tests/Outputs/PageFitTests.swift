import Glibc
import LodestoneCore
import LodestoneHAL
@testable import LodestoneOutputs
import LodestoneReports
import Testing

/// Every page at the three panel sizes of the display's issue (320x240, 480x320, 800x480) on
/// the walk's, the boat's and the lakeside station's fixed models, read from the runs and
/// drawings the frame records (what `lodestone screenshot --layout-json` writes): no text
/// shortened or cut to fit, the key figure the largest text of its page, and at 800x480 at
/// least 60% of the panel used by a page with something to say.
@Suite struct PageFitTests {
    static let sizes = [(320, 240), (480, 320), (800, 480)]
    /// The pages with one key figure, and which it is.
    static let keyed: [DisplayPage] = [.compass, .position, .departures, .waves, .barometer, .sky]

    struct Frame {
        var runs: [TextRun], drawings: [PixelBox], used: Double
    }

    static func frame(_ page: DisplayPage, _ model: DisplayModel, width: Int, height: Int) -> Frame {
        let frame = MemoryFramebuffer(width: width, height: height, format: .rgb565)
        (frame.textRuns, frame.drawnBoxes) = ([], [])
        GraphicPages.draw(page, model, theme: .day, on: frame)
        let runs = frame.textRuns ?? [], drawings = frame.drawnBoxes ?? []
        // With LODESTONE_FIT_SHOTS=DIR, each frame as a picture to look at.
        if let folder = getenv("LODESTONE_FIT_SHOTS").map({ String(cString: $0) }) {
            let png = PNGEncoder.encode(frame)
            let fd = open("\(folder)/\(page.rawValue)-\(width)x\(height)-\(model.title).png", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if fd >= 0 { _ = png.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }; close(fd) }
        }
        return Frame(runs: runs, drawings: drawings, used: PanelCoverage.usedFraction(texts: runs, drawings: drawings, width: width, height: height))
    }

    static func model(_ name: String) -> DisplayModel {
        name == "boat" ? DisplayFixtures.boat : (name == "lakeside" ? DisplayFixtures.lakeside : DisplayFixtures.walk)
    }

    /// Whether the model gives `page` something to say beyond a line of what is missing.
    static func hasSomethingToSay(_ page: DisplayPage, _ model: DisplayModel) -> Bool {
        switch page {
        case .compass: return model.state.attitude != nil
        case .position: return model.state.fix.hasPosition
        case .level: return model.level.roll.isFinite
        case .barometer: return model.weather != nil
        case .sky: return model.sky?.located == true
        case .chart: return model.chart != nil
        case .track: return model.track != nil
        case .departures: return model.departures.map { !$0.rows.isEmpty } ?? false
        case .waves: return model.waves != nil
        case .day: return model.day != nil
        case .connect: return model.connect?.url != nil
        case .health: return true
        }
    }

    @Test(arguments: ["walk", "boat", "lakeside"])
    func everyPageFitsItsPanel(_ name: String) {
        let model = Self.model(name)
        var problems: [String] = []
        for (width, height) in Self.sizes {
            for page in DisplayPage.allCases {
                let frame = Self.frame(page, model, width: width, height: height)
                let at = "\(name) \(page.rawValue) \(width)x\(height)"
                problems += frame.runs.filter(\.clipped).map { "\(at): clipped '\($0.text)'" }
                let says = Self.hasSomethingToSay(page, model)
                if width == 800, says, frame.used < 0.6 { problems.append("\(at): used \(frame.used)") }
                let keys = frame.runs.filter(\.key), others = frame.runs.filter { !$0.key }
                if says, Self.keyed.contains(page) {
                    let tallestOther = others.map(\.height).max() ?? 0
                    if keys.isEmpty { problems.append("\(at): no key figure") }
                    for key in keys where key.height <= tallestOther {
                        problems.append("\(at): key '\(key.text)' \(key.height) px, not above \(tallestOther) px")
                    }
                }
                print("page fit \(at): used \(frame.used), key \(keys.map(\.text)) \(keys.map(\.height).max() ?? 0) px")
            }
        }
        for line in problems { print("  " + line) }
        #expect(problems.isEmpty, "\(problems.count) problems, the first: \(problems.first ?? "")")
    }

    /// The measure itself: a page in its top third uses about a third; the tiles a box touches
    /// count whole; nothing off the panel counts.
    /// A new device, nothing recorded and nothing saved: the track page still answers "does it
    /// know where I am?" with the place a track would begin, at every size, and fills a large
    /// panel as the other pages do; without a fix it says what it waits for.
    @Test func aNewDevicesTrackPageShowsWhereTheFirstTrackBegins() {
        var model = DisplayFixtures.walk
        model.track = DisplayModel.TrackPanel()
        for (width, height) in Self.sizes {
            let frame = Self.frame(.track, model, width: width, height: height)
            let texts = frame.runs.map(\.text)
            #expect(texts.contains { $0.contains("46°41") }, "\(width)x\(height): no latitude in \(texts)")
            #expect(texts.contains { $0.contains("No track saved yet") }, "\(width)x\(height): \(texts)")
            let clipped = frame.runs.filter(\.clipped).map(\.text)
            #expect(clipped.isEmpty, "\(width)x\(height): clipped \(clipped)")
            if width == 800 { #expect(frame.used >= 0.6, "800x480 used \(frame.used)") }
        }
        model.state.fix = GPSFix()
        let waiting = Self.frame(.track, model, width: 480, height: 320).runs.map(\.text).joined(separator: " ")
        #expect(waiting.contains("No fix yet"), "\(waiting)")
    }

    @Test func theUsedFractionCountsTilesTouched() {
        let top = [TextRun(text: "A", x: 0, y: 0, width: 800, height: 160, missingGlyphs: 0)]
        #expect(PanelCoverage.usedFraction(texts: top, drawings: [], width: 800, height: 480) == 4.0 / 12)
        let corner = [PixelBox(x: 39, y: 39, width: 2, height: 2)]
        #expect(PanelCoverage.usedFraction(texts: [], drawings: corner, width: 800, height: 480) == 4.0 / 240)
        let off = [PixelBox(x: -50, y: 500, width: 20, height: 20)]
        #expect(PanelCoverage.usedFraction(texts: [], drawings: off, width: 800, height: 480) == 0)
    }
}
