import CLinux
import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs
import LodestoneReports
import LodestoneStorage

/// The display: nowhere, the terminal, or a framebuffer (a display's /dev/fbN, or a file
/// standing in for one, with a PPM screenshot beside it), showing one page at a time in a
/// theme and units a person can change.
final class DisplayTarget {
    enum Output {
        case none
        case terminal
        /// The frame is drawn into `back` and copied to the screen in one go.
        case framebuffer(any Framebuffer, back: MemoryFramebuffer, screenshot: String?)
    }

    let output: Output
    var page: DisplayPage
    var theme: Theme
    var units: Units
    /// The pages' words (the `language` setting).
    var language = Language.en
    var north: HeadingReference
    /// The departures page shows only the marked departures (the flip gesture can toggle it).
    var onlyMarkedDepartures = false
    private var renderer = TerminalRenderer()
    /// Whether keys are read from the terminal (stdin is the terminal the display is on).
    private(set) var readsKeys = false
    /// Why the terminal the display is on is gone (a write to it or a read of its keys failed,
    /// as they do once it has hung up); nil while it is there.
    private(set) var terminalLost: String?
    private var lastFullRepaint: MonotonicNanoseconds = 0
    private var pageButtonHeld = false

    /// A file framebuffer has the geometry of a common 2.8-inch SPI TFT.
    static let fileWidth = 320, fileHeight = 240

    init(_ output: Output, page: DisplayPage = .compass, theme: Theme = .day, units: Units = .metric, north: HeadingReference = .true) {
        self.output = output
        self.page = page
        self.theme = theme
        self.units = units
        self.north = north
    }

    /// Opens what a `--display` value names; nil picks the terminal when stdout is one and the
    /// process runs in its foreground (not `lodestone run &`).
    static func open(
        _ setting: String?, page: DisplayPage = .compass, theme: Theme = .day, units: Units = .metric,
        north: HeadingReference = .true
    ) throws(FramebufferError) -> DisplayTarget {
        func make(_ output: Output) -> DisplayTarget { DisplayTarget(output, page: page, theme: theme, units: units, north: north) }
        guard let setting else { return make(isatty(1) == 1 && tcgetpgrp(1) == getpgrp() ? .terminal : .none) }
        switch setting {
        case "terminal": return make(.terminal)
        case "none": return make(.none)
        default:
            let path = String(setting.dropFirst(3))  // after "fb:"
            var status = stat()
            let exists = stat(path, &status) == 0
            if exists && status.st_mode & S_IFMT == S_IFCHR {
                let screen = try LinuxFramebuffer(path: path)
                return make(.framebuffer(screen, back: MemoryFramebuffer(like: screen), screenshot: nil))
            }
            // Under /dev only a device will do: a missing one is an error, never a file made there.
            if path.hasPrefix("/dev/") { throw exists ? .notADevice(path) : .notFound(path) }
            let file = try FileFramebuffer(path: path, width: fileWidth, height: fileHeight, format: .rgb565)
            return make(.framebuffer(file, back: MemoryFramebuffer(like: file), screenshot: path + ".ppm"))
        }
    }

    /// Whether the display is the terminal: a hang-up then means the person has gone.
    var isTerminal: Bool {
        if case .terminal = output { return true }
        return false
    }

    var isActive: Bool {
        if case .none = output { return false }
        return true
    }

    /// A terminal redraws four times a second (only what changed); a framebuffer (slow SPI
    /// panels take 30-50 ms per frame) and its screenshot once a second, and the compass and
    /// level pages every `movingPeriod` while what they show moves (`followsMotion`).
    var refreshPeriod: UInt64 {
        if case .framebuffer = output { return 1_000_000_000 }
        return 250_000_000
    }

    /// 13 frames a second while the rose turns or the bubble moves.
    static let movingPeriod: UInt64 = 75_000_000

    /// Whether the page on a framebuffer redraws as fast as its instrument moves.
    var followsMotion: Bool {
        guard case .framebuffer = output else { return false }
        return page == .compass || page == .level
    }

    /// What the screen showed after the last frame, so only what changed is written.
    private var shadow: MemoryFramebuffer?
    private var lastScreenshot: MonotonicNanoseconds?
    /// Bytes the last frame wrote to the panel.
    private(set) var bytesWritten = 0

    /// The descriptor to watch for key presses, if any.
    var keyDescriptor: Int32? { readsKeys ? 0 : nil }

    func begin() {
        guard case .terminal = output, isatty(1) == 1 else { return }
        if lodestone_terminal_take(1) == 0 {
            readsKeys = isatty(0) == 1
            if isatty(2) == 1 { Log.hold() }
        }
    }

    func end() {
        guard case .terminal = output else { return }
        lodestone_terminal_restore()
        Log.release()
    }

    /// What a panel shows once the program has stopped: a cleared screen saying so and since
    /// when (`utc`), never the last live frame: a stale heading on a panel would be believed.
    func showStopped(utc: Double) {
        guard case .framebuffer(let screen, let back, let screenshot) = output else { return }
        let layout = FramebufferLayout(width: screen.width, height: screen.height)
        var text = TextScreen(columns: layout.columns, rows: layout.rows)
        text.put("LODESTONE", column: 0, row: 0, ink: .dim)
        let time = CivilTime(unixSeconds: utc)
        let stamp = zeroPadded(time.hour, 2) + ":" + zeroPadded(time.minute, 2) + " UTC"
        text.centre("STOPPED", row: max(1, layout.rows / 2 - 1), ink: .warning)
        text.centre(stamp, row: min(layout.rows - 1, layout.rows / 2 + 1), ink: .dim)
        FramebufferRenderer.draw(text, theme: theme, layout: layout, on: back)
        back.present(on: screen)
        if let screenshot { writeFileAtomically(screenshot, screen.ppm()) }
    }

    /// Acts on a key; true when it asks to quit.
    func apply(_ key: TerminalKey) -> Bool {
        switch key {
        case .page(let chosen): page = chosen
        case .nextPage: page = page.next
        case .previousPage: page = page.previous
        case .toggleTheme: theme = theme.toggled
        case .toggleUnits: units = units.cycled
        case .toggleNorth: north = north.toggled
        case .toggleTrack: break  // the track service's, in DisplayDriver
        case .quit: return true
        }
        return false
    }

    /// The page button: a press shows the next page, a long press (1 s) toggles the theme.
    /// Acting on release keeps a long press from also turning the page.
    func pageButton(_ event: Button.Event) {
        switch event {
        case .press: break
        case .longPress:
            pageButtonHeld = true
            theme = theme.toggled
        case .release:
            if !pageButtonHeld { page = page.next }
            pageButtonHeld = false
        }
    }

    /// Keys pressed since the last call.
    func keys() -> [TerminalKey] {
        guard readsKeys else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(0, &buffer, buffer.count)
        // Without a key waiting the read says 0 (the terminal is in non-blocking raw mode): only an error says it is gone.
        if count < 0 && errno != EAGAIN && errno != EINTR && terminalLost == nil {
            terminalLost = "reading its keys failed: " + String(cString: strerror(errno))
        }
        return count > 0 ? TerminalKey.decode(Array(buffer[0..<count])) : []
    }

    /// The terminal's size in cells; 80 x 24 when it cannot be asked.
    static func terminalSize() -> (columns: Int, rows: Int) {
        var columns: Int32 = 0, rows: Int32 = 0
        guard lodestone_terminal_size(1, &columns, &rows) == 0, columns > 0, rows > 0 else { return (80, 24) }
        return (Int(columns), Int(rows))
    }

    func draw(_ model: DisplayModel, now: MonotonicNanoseconds) {
        var model = model
        model.units = units
        model.language = language
        model.north = north
        switch output {
        case .none:
            return
        case .terminal:
            // Every few seconds every cell is written again, in case anything else wrote to
            // the terminal (a message from another program, a resize the size did not show).
            if now &- lastFullRepaint > 5_000_000_000 {
                renderer.invalidate()
                lastFullRepaint = now
            }
            let size = Self.terminalSize()
            if let failure = writeOutChecked(renderer.frame(page.draw(model, columns: size.columns, rows: size.rows, keys: readsKeys), theme: theme)),
                failure != EAGAIN, terminalLost == nil
            {
                terminalLost = "writing to it failed: " + String(cString: strerror(failure))
            }
        case .framebuffer(let screen, let back, let screenshot):
            GraphicPages.draw(page, model, theme: theme, on: back)
            if let shadow {
                bytesWritten = back.presentChanges(on: screen, shadow: shadow)
            } else {
                back.present(on: screen)
                let first = MemoryFramebuffer(like: back)
                back.present(on: first)
                shadow = first
                bytesWritten = back.lineLength * back.height
            }
            // The file framebuffer's picture at most once a second, however fast the frames.
            if let screenshot, lastScreenshot.map({ now &- $0 >= 1_000_000_000 || now < $0 }) ?? true {
                lastScreenshot = now
                writeFileAtomically(screenshot, screen.ppm())
            }
        }
    }
}

/// The terminal's size in cells, for commands that draw to it (80 x 24 when it cannot be asked).
public func terminalCells() -> (columns: Int, rows: Int) { DisplayTarget.terminalSize() }
