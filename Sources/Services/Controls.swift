import LodestoneCore
import LodestoneHAL
import LodestoneReports
import LodestoneSettings
import LodestoneBoard

/// The device's buttons, buzzer and LED, served from the output loop: button edges are
/// debounced into presses and long presses, published as EVENT reports for the features
/// and clients that act on them, and acknowledged on the buzzer or LED so a person with
/// gloves on knows the press was taken.
package final class Controls {
    private var buttons: [(button: Button, line: any DigitalInput)] = []
    private var edges: [EdgeEvent] = []
    private let buzzer: PatternPlayer?
    private let led: PatternPlayer?
    /// Lines that could not be had, with why (logged once at start).
    package private(set) var problems: [String] = []
    /// What each event plays, the mute and the quiet hours.
    package var sounds = SoundSettings()
    /// The local minute of the day, for the quiet hours (set by the output loop).
    package var minuteOfDay = 0

    /// Requests the lines the board names; a line that fails is reported and left out, the
    /// rest still work.
    package init(wiring: BoardDescription.GPIOWiring, provider: any GPIOLineProvider) {
        for name in BoardDescription.buttonNames {
            guard let offset = wiring.buttons[name] else { continue }
            do { buttons.append((Button(name: name), try provider.input(offset: offset, pullUp: true))) } catch {
                problems.append("button \(name): \(error.description)")
            }
        }
        func player(_ offset: Int?, _ what: String, problems: inout [String]) -> PatternPlayer? {
            guard let offset else { return nil }
            do { return PatternPlayer(output: try provider.output(offset: offset)) } catch {
                problems.append("\(what): \(error.description)")
                return nil
            }
        }
        buzzer = player(wiring.buzzer, "buzzer", problems: &problems)
        led = player(wiring.led, "LED", problems: &problems)
        edges.reserveCapacity(64)
    }

    /// Takes pending edges and advances patterns; returns the button events that happened.
    package func update(at now: MonotonicNanoseconds) -> [(button: String, event: Button.Event)] {
        var happened: [(String, Button.Event)] = []
        for index in buttons.indices {
            edges.removeAll(keepingCapacity: true)
            do { try buttons[index].line.takeEvents { edges.append($0) } } catch {
                continue  // a line that errors reads as idle; the next call tries again
            }
            if let event = buttons[index].button.update(edges: edges, now: now) {
                happened.append((buttons[index].button.name, event))
                if event == .press { signal(.button, at: now) }
                if event == .longPress { signal(.longPress, at: now) }
            }
        }
        buzzer?.update(at: now)
        led?.update(at: now)
        return happened
    }

    /// Plays `kind`'s pattern on the LED, and on the buzzer unless muted or in quiet hours.
    package func signal(_ kind: SoundSettings.Kind, at now: MonotonicNanoseconds) {
        let pattern = sounds.pattern(kind)
        guard !pattern.steps.isEmpty else { return }
        if sounds.buzzes(kind, minute: minuteOfDay) { buzzer?.play(pattern, at: now) }
        led?.play(pattern, at: now)
    }

    /// The EVENT report for a button event.
    package static func report(button: String, event: Button.Event, time: Double) -> Report {
        let action: String
        switch event {
        case .press: action = "press"
        case .longPress: action = "longPress"
        case .release: action = "release"
        }
        return .event(EventReport(.button(name: button, action: action), time: time))
    }
}
