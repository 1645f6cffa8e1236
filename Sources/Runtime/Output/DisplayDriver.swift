import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs
import LodestoneReports
import LodestoneSettings
import LodestoneStorage

/// The display's side of the output thread: redraws at the display's pace with the heading
/// smoothed for reading, acts on keys and on the flip gesture, and keeps the theme and units
/// a person chose for the next start.
final class DisplayDriver<Clock: MonotonicClock> {
    let context: OutputContext<Clock>
    let display: DisplayTarget
    /// Where the display's choice is kept across restarts (with a data directory).
    let memory: DeviceMemoryFile?
    /// The display's adapter: it takes every report the outputs take (the fanout hands them
    /// over), and the page's panels and the device's health before each redraw.
    let feed: DisplayFeed
    /// The services' panels for the page on screen.
    let panels: PagePanels
    /// HEALTH as STATUS gives it (the loop supplies it once it exists).
    var health: (() -> Report)?
    /// What the flip gesture does (SIGHUP may change it).
    var flipAction: Configuration.FlipAction
    private var nextDisplay: MonotonicNanoseconds = 0
    /// The flips the display has acted on.
    private var seenFlips = 0
    /// The display's theme and units as last saved (a key, the button or a flip changes them).
    private var savedDisplay: DeviceMemoryFile.DisplayChoice?
    /// When the last frame was drawn and what the instrument showed in it.
    private var lastFrame: MonotonicNanoseconds = 0
    private var drawnMotion: (heading: Double, roll: Double, pitch: Double)?
    /// Degrees the rose or the bubble must move for a frame: about a pixel at the rim of a
    /// 480 x 320 panel's rose; the sensors' noise on a still device stays under it.
    static var visibleTurn: Double { 0.3 }
    /// Frames drawn and their cost, for HEALTH's `display`.
    private(set) var frames = FrameStatistics()

    init(
        context: OutputContext<Clock>, display: DisplayTarget, memory: DeviceMemoryFile?, title: String,
        flipAction: Configuration.FlipAction
    ) {
        self.context = context
        self.display = display
        self.memory = memory
        feed = DisplayFeed(title: title)
        panels = PagePanels(services: context.services)
        self.flipAction = flipAction
        if memory != nil { savedDisplay = DeviceMemoryFile.DisplayChoice(theme: display.theme, units: display.units) }
    }

    private var services: OutputServices { context.services }
    private var latest: NavigationState { context.latest }
    private var clock: Clock { context.clock }
    private func utcNow() -> Double { context.utcNow() }

    /// The next round redraws, whatever the refresh period (a key, a button, a new setting).
    func redrawSoon() { nextDisplay = 0 }

    /// Keys on the terminal display; true when the person asked to quit.
    func handleKeys() -> Bool {
        var quit = false
        for key in display.keys() {
            // r: what the track button's short press does.
            if key == .toggleTrack, let tracks = services.tracks { context.send(tracks.toggle(at: utcNow())) }
            quit = display.apply(key) || quit
            nextDisplay = 0
        }
        rememberDisplayChoice()
        return quit
    }

    /// The page button.
    func pageButton(_ event: Button.Event) {
        display.pageButton(event)
        nextDisplay = 0
    }

    /// "display": the screen, when its refresh period has passed (or a key asked for it), and
    /// on a framebuffer's compass and level pages as often as `movingPeriod` while the rose
    /// turns or the bubble moves (a still instrument is not redrawn for nothing).
    func redrawWhenDue() {
        let now = clock.now()
        guard display.isActive else { return }
        if now >= nextDisplay {
            nextDisplay = now + display.refreshPeriod
            redraw(now)
            return
        }
        guard display.followsMotion, now &- lastFrame >= DisplayTarget.movingPeriod else { return }
        // Moved on to now first: that is what the frame would show (redraw's own advance then finds nothing left to do).
        feed.advance(to: utcNow())
        guard let motion = feed.motionNow, let drawn = drawnMotion else { return }
        if abs(Angle.signed(motion.heading - drawn.heading)) >= Self.visibleTurn || abs(motion.roll - drawn.roll) >= Self.visibleTurn
            || abs(motion.pitch - drawn.pitch) >= Self.visibleTurn
        {
            redraw(now)
        }
    }

    /// Draws the display now, whatever its refresh period (the last frame of a screenshot).
    func redrawNow() { redraw(clock.now()) }

    /// Keeps the theme and units a key, the button or a flip chose for the next start.
    func rememberDisplayChoice() {
        let choice = DeviceMemoryFile.DisplayChoice(theme: display.theme, units: display.units)
        guard choice != savedDisplay, let memory else { return }
        savedDisplay = choice
        memory.save(choice)
    }

    /// The screen, from the reports the display has taken and the page's panels.
    private func redraw(_ now: MonotonicNanoseconds) {
        defer {
            let done = clock.now()
            frames.record(at: done, duration: done &- now)
            lastFrame = now
            drawnMotion = feed.motionNow
        }
        feed.advance(to: utcNow())
        // The flip gesture toggles the theme, whichever way it was set before.
        if let motion = services.motion, motion.flips != seenFlips {
            seenFlips = motion.flips
            switch flipAction {
            case .nightTheme: display.theme = display.theme.toggled
            case .nextPage: display.page = display.page.next
            case .markedDepartures: display.onlyMarkedDepartures.toggle()
            case .none: break
            }
        }
        rememberDisplayChoice()
        for panel in panels.reports(
            for: display.page, latest: latest, time: utcNow(), onlyMarkedDepartures: display.onlyMarkedDepartures, language: display.language)
        {
            feed.take(panel)
        }
        if let health { feed.take(health()) }
        if display.page == .connect {
            // Pairing codes run on real time, as `lodestone web pair`'s do.
            feed.take(
                .connect(
                    context.fanout.web?.connectPanel(now: OutputClock.unixTime())
                        ?? ConnectPanel(
                            url: nil, minutesLeft: nil,
                            problem: "the web app is off: run with --http ADDR (or \"http\": {\"listen\": ...} in the configuration)")))
        }
        display.draw(feed.model(), now: now)
    }
}

/// The display's frames: how many were drawn in the last second and how long one takes
/// (a moving mean), without allocating.
struct FrameStatistics {
    /// The newest frames' times, a ring of 32 (more than a second's at the fastest pace).
    private var times = (0..<32).map { _ in MonotonicNanoseconds(0) }
    private var next = 0
    private(set) var frameMilliseconds = 0.0
    private var newest: MonotonicNanoseconds = 0

    mutating func record(at time: MonotonicNanoseconds, duration: MonotonicNanoseconds) {
        times[next] = time
        next = (next + 1) % times.count
        newest = time
        let ms = Double(duration) / 1e6
        frameMilliseconds = frameMilliseconds == 0 ? ms : frameMilliseconds * 0.9 + ms * 0.1
    }

    /// Frames in the second up to the newest.
    var framesPerSecond: Int {
        times.filter { $0 > 0 && newest &- $0 < 1_000_000_000 }.count
    }
}
