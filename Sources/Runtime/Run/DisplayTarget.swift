import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs

/// Where the status screen goes: nowhere, the terminal, or a framebuffer (a display's
/// /dev/fbN, or a file standing in for one, with a PPM screenshot beside it).
enum DisplayTarget {
    case none
    case terminal
    case framebuffer(any Framebuffer, screenshot: String?)

    /// A file framebuffer has the geometry of a common 2.8-inch SPI TFT.
    static let fileWidth = 320, fileHeight = 240

    /// Opens what a `--display` value names; nil picks the terminal when stdout is one.
    static func open(_ setting: String?) throws(FramebufferError) -> DisplayTarget {
        guard let setting else { return isatty(1) == 1 ? .terminal : .none }
        switch setting {
        case "terminal": return .terminal
        case "none": return .none
        default:
            let path = String(setting.dropFirst(3))   // after "fb:"
            var status = stat()
            if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR {
                return .framebuffer(try LinuxFramebuffer(path: path), screenshot: nil)
            }
            let file = try FileFramebuffer(path: path, width: fileWidth, height: fileHeight, format: .rgb565)
            return .framebuffer(file, screenshot: path + ".ppm")
        }
    }

    var isActive: Bool {
        if case .none = self { return false }
        return true
    }

    /// A terminal redraws four times a second; a framebuffer (slow SPI panels take 30-50 ms
    /// per frame) and its screenshot once a second.
    var refreshPeriod: UInt64 {
        if case .framebuffer = self { return 1_000_000_000 }
        return 250_000_000
    }

    func begin() { if case .terminal = self { writeOut("\u{1B}[?25l") } }
    func end() { if case .terminal = self { writeOut("\u{1B}[?25h") } }

    func draw(_ state: NavigationState, calibration: String?, progress: Double, night: Bool, profile: String?,
              navigation: String?, gpsWarning: String?, trend: String? = nil, alert: String? = nil, sky: String? = nil,
              graphs: [(label: String, values: [Double])] = [], terminalText: () -> String) {
        switch self {
        case .none:
            return
        case .terminal:
            writeOut(night ? "\u{1B}[31m" + terminalText() + "\u{1B}[0m" : terminalText())
        case .framebuffer(let screen, let screenshot):
            var view = FramebufferView(calibration: calibration, calibrationProgress: progress, night: night, profile: profile)
            view.navigation = navigation
            view.gpsWarning = gpsWarning
            view.trend = trend
            view.alert = alert
            view.graphs = graphs
            view.sky = sky
            view.render(state, on: screen)
            if let screenshot { _ = writeFileAtomically(screenshot, screen.ppm()) }
        }
    }
}
