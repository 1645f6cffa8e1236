import Glibc
@testable import LodestoneDomain
import Testing

/// One crossing, one alert; history ranges hold what they should.
@Suite struct AlertAndHistoryTests {
    @Test func anAlertsWordsNeverTrapOnItsFigures() {
        for value in [Double.nan, .infinity, -.infinity, 1e300] {
            let alert = AlertRules.Alert(kind: .altitudeReached, value: value, threshold: 1000, time: 0)
            #expect(alert.message == "Altitude of 1000 m reached: now -- m", "\(value)")
        }
    }

    /// The rule by its name and the value now, in either language of the table of words.
    @Test func anAlertSaysItsRuleByName() {
        let alert = AlertRules.Alert(kind: .pressureHigh, value: 1041.2, threshold: 1040, time: 0)
        #expect(alert.message == "Pressure above 1040 hPa: now 1041.2 hPa")
        #expect(alert.message(.de) == "Luftdruck über 1040 hPa: jetzt 1041.2 hPa")
        let fall = AlertRules.Alert(kind: .rapidFall, value: -2.4, threshold: -2, time: 0)
        #expect(fall.message == "Pressure falling faster than 2 hPa an hour: now 2.4 hPa an hour: storm approaching, seek shelter or harbour")
    }

    @Test func aValueHoveringOnTheLineGivesOneAlert() {
        var rules = AlertRules()
        var fired: [AlertRules.Alert] = []
        // Pressure drifting down through 980 hPa with ±0.5 hPa of noise for two hours, one reading a second.
        for second in 0..<7200 {
            let pressure = 980.3 - Double(second) / 36_000 + (second % 2 == 0 ? 0.5 : -0.5)
            fired += rules.evaluate([.pressureLow: pressure], time: Double(second))
        }
        #expect(fired.count == 1 && fired[0].kind == .pressureLow)
        #expect(fired[0].time < 10, "raised within seconds of the first crossing: \(fired[0].time)")
    }

    @Test func itFiresAgainOnlyAfterComingBackAndTheCooldown() {
        var rules = AlertRules()
        rules.set(AlertRules.Rule(kind: .temperatureLow, enabled: true, threshold: 0, hysteresis: 1, cooldown: 600))
        #expect(rules.evaluate([.temperatureLow: -0.5], time: 0).count == 1)
        #expect(rules.evaluate([.temperatureLow: 0.5], time: 100).isEmpty)
        #expect(rules.evaluate([.temperatureLow: -0.5], time: 200).isEmpty, "not back by the hysteresis yet")
        #expect(rules.evaluate([.temperatureLow: 1.5], time: 300).isEmpty)
        #expect(rules.evaluate([.temperatureLow: -1], time: 400).isEmpty, "re-armed, but inside the cooldown")
        #expect(rules.evaluate([.temperatureLow: -1], time: 601).count == 1, "still below once the cooldown is over")
    }

    @Test func disabledRulesAndMissingValuesStaySilent() {
        var rules = AlertRules()
        #expect(rules.evaluate([.altitudeReached: 5000], time: 0).isEmpty, "the altitude target is off by default")
        rules.set(AlertRules.Rule(kind: .altitudeReached, enabled: true, threshold: 2500, hysteresis: 10, cooldown: 60))
        #expect(rules.evaluate([.altitudeReached: .nan, .pressureLow: .nan], time: 1).isEmpty)
        let reached = rules.evaluate([.altitudeReached: 2501], time: 2)
        #expect(reached.count == 1 && reached[0].message == "Altitude of 2500 m reached: now 2501 m")
        let storm = rules.evaluate([.rapidFall: -2.4], time: 3)
        #expect(storm.count == 1 && storm[0].message.contains("storm approaching, seek shelter"))
    }

    @Test func historyRangesKeepMinimumMaximumAndMean() {
        var history = History()
        let start = 1_782_028_800.0
        // A week of pressure once a minute: a daily swing of ±2 hPa around 1010, plus a 995 dip on day 3.
        for minute in 0..<(7 * 1440) {
            let t = start + Double(minute) * 60
            let daily = 2 * sin(Double(minute) / 1440 * 2 * .pi)
            history.add((minute / 1440 == 3 && minute % 1440 == 700) ? 995 : 1010 + daily, time: t)
        }
        let now = start + Double(7 * 1440 - 1) * 60
        let week = history.summary(.week, now: now)
        #expect(week.minimum == 995 && abs(week.maximum - 1012) < 0.01)
        #expect(abs(week.mean - 1010) < 0.05)
        #expect(week.points.count == 336)
        let hour = history.summary(.hour, now: now)
        #expect(hour.samples == 60 && hour.points.count == 60, "one bucket per minute-sample in 10 s buckets")
        let day = history.summary(.day, now: now)
        #expect(day.samples == 1440 && day.minimum > 1007.9, "the dip is older than a day")
        #expect(history.summary(.sixHours, now: now + 7 * 3600).samples == 0, "stale buckets read as empty")
        #expect(History.Range(rawValue: "6h") == .sixHours)
    }
}
