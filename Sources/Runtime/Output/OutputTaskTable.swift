import LodestoneCore

/// The output thread's task table: what runs, how often (on the device's clock) and within
/// what budget. It has no real-time priority and nothing is skipped for want of time: the
/// thread waits on its sockets between rounds, and a task that takes longer than its budget
/// is counted (`lodestone status` shows the figures beside the sampling table's).
enum OutputTaskTable {
    /// How often the thread runs the table's due tasks when nothing wakes it sooner.
    static let loopRateHz = 50.0

    static func tasks<Clock: MonotonicClock>(for loop: OutputLoop<Clock>) -> [ScheduledTask] {
        [
            // The sampling side's states in order, each with its samples, and the reports
            // (`reportTasks`) whose slots they reach: every other task reads what they brought.
            ScheduledTask(name: "samples", rateHz: 50, budgetMicroseconds: 5000, priority: 0) { [unowned loop] in
                loop.intake.follow(); loop.tellServiceManager()
            },
            ScheduledTask(name: "controls", rateHz: 50, budgetMicroseconds: 300, priority: 1) { [unowned loop] in loop.buttons.serveControls() },
            // 25 Hz: a moving rose is drawn every 75 ms (13 frames a second); otherwise a call
            // finds nothing due and returns.
            ScheduledTask(name: "display", rateHz: 25, budgetMicroseconds: 15000, priority: 9) { [unowned loop] in loop.displayDriver.redrawWhenDue() },
            ScheduledTask(name: "mqtt", rateHz: 10, budgetMicroseconds: 2000, priority: 11) { [unowned loop] in
                loop.context.fanout.tickMQTT(tracks: loop.context.services.tracks)
            },
            ScheduledTask(name: "streams", rateHz: 50, budgetMicroseconds: 1000, priority: 10) { [unowned loop] in loop.context.fanout.flushStreams() }
        ]
            + (loop.recording == nil
                ? []
                : [
                    // A second's recording deflated and written once a second, in tenths.
                    ScheduledTask(name: "record", rateHz: 10, budgetMicroseconds: 5000, priority: 12) { [unowned loop] in
                        loop.recording?.drain(deviceSeconds: Double(loop.context.clock.now()) / 1e9)
                    }
                ])
    }

    /// The services' rounds, run on sample time (`ReportSlots`): what they publish is decided
    /// by the samples, whenever the thread runs them.
    static func reportTasks<Clock: MonotonicClock>(for loop: OutputLoop<Clock>) -> [ScheduledTask] {
        [
            ScheduledTask(name: "compass", rateHz: 10, budgetMicroseconds: 2000, priority: 2) { [unowned loop] in loop.ticks.runCompass() },
            ScheduledTask(name: "attitude", rateHz: 10, budgetMicroseconds: 1000, priority: 3) { [unowned loop] in loop.ticks.publishAttitude() },
            ScheduledTask(name: "adaptive", rateHz: 10, budgetMicroseconds: 200, priority: 4) { [unowned loop] in loop.ticks.adaptSampling() },
            ScheduledTask(name: "positions", rateHz: 1, budgetMicroseconds: 2000, priority: 5) { [unowned loop] in
                loop.ticks.publishPositions(units: loop.display.units)
            },
            ScheduledTask(name: "weather", rateHz: 1, budgetMicroseconds: 5000, priority: 6) { [unowned loop] in loop.ticks.publishWeather() },
            ScheduledTask(name: "sky", rateHz: 1, budgetMicroseconds: 5000, priority: 7) { [unowned loop] in loop.ticks.publishSky() },
            ScheduledTask(name: "motion", rateHz: 1, budgetMicroseconds: 500, priority: 8) { [unowned loop] in loop.ticks.publishMotion() }
        ]
    }
}
