import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs
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
    /// Gathers what the pages show.
    let feed: DisplayFeed
    /// What the flip gesture does (SIGHUP may change it).
    var flipAction: Configuration.FlipAction
    /// The display's heading, smoothed on the unit circle so 359° and 1° average to 0°, not 180°.
    private var displayHeading = HeadingSmoother(timeConstant: 0.5)
    private var lastDisplay: MonotonicNanoseconds = 0
    private var nextDisplay: MonotonicNanoseconds = 0
    /// The flips the display has acted on.
    private var seenFlips = 0
    /// The display's theme and units as last saved (a key, the button or a flip changes them).
    private var savedDisplay: DeviceMemoryFile.DisplayChoice?

    init(context: OutputContext<Clock>, display: DisplayTarget, memory: DeviceMemoryFile?, feed: DisplayFeed,
         flipAction: Configuration.FlipAction) {
        self.context = context
        self.display = display
        self.memory = memory
        self.feed = feed
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

    /// "display": the screen, when its refresh period has passed (or a key asked for it).
    func redrawWhenDue() {
        let now = clock.now()
        guard display.isActive, now >= nextDisplay else { return }
        nextDisplay = now + display.refreshPeriod
        redraw(now)
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

    /// The screen, with the heading smoothed for reading.
    private func redraw(_ now: MonotonicNanoseconds) {
        var shown = latest
        if let attitude = latest.attitude {
            let interval = lastDisplay == 0 ? 1 : Double(now &- lastDisplay) / 1e9
            displayHeading.update(heading: attitude.magneticHeading, interval: min(interval, 1))
            lastDisplay = now
            if let smoothed = displayHeading.heading {
                shown.attitude?.magneticHeading = smoothed
                shown.trueHeading = latest.declination.map { Angle.heading(smoothed + $0) }
            }
        }
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
        display.draw(feed.model(shown, latest: latest, position: context.fanout.lastPosition?.fix, time: utcNow(), page: display.page,
                                              onlyMarkedDepartures: display.onlyMarkedDepartures), now: now)
    }
}
