import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import Testing

/// What the NMEA output makes of the attitude reports.
@Suite struct NMEAFeedTests {
    static func state(heading: Double, declination: Double? = 2) -> NavigationState {
        var state = NavigationState()
        state.attitude = TiltCompensatedHeading(roll: 1, pitch: -2, magneticHeading: heading)
        state.declination = declination
        state.trueHeading = declination.map { Angle.heading(heading + $0) }
        state.magnetometerHealth = .ok
        state.magnetic = MagneticSample(time: 0, field: Vector3(20, 0, 40), raw: Vector3(20, 0, 40), specificForce: nil)
        state.calibrationHeadingError = 1.5
        return state
    }

    /// With the magnetometer failing the heading is the gyro's alone: HDM, HDG and HDT are
    /// withheld (HDM cannot say it is invalid); pitch and roll still go, and so does the rate
    /// of turn, which is the gyro's.
    /// The sentences of an ATT made from `state`.
    struct Feed {
        func heading(_ state: NavigationState) -> [String] { NMEAFeed.heading(AttitudeReport(state: state, device: "imu", time: 0)) }
    }

    @Test func anInvalidHeadingIsWithheld() {
        let feed = Feed()
        var state = Self.state(heading: 100)
        state.magnetometerHealth = .degraded
        #expect(feed.heading(state).map { String($0.prefix(6)) } == ["$IIXDR"])
        state.rateOfTurn = 3
        #expect(feed.heading(state).map { String($0.prefix(6)) } == ["$HCROT", "$IIXDR"])
        state.magnetometerHealth = .ok
        state.magnetic = nil
        state.rateOfTurn = nil
        #expect(feed.heading(state).map { String($0.prefix(6)) } == ["$IIXDR"])
        var uncalibrated = Self.state(heading: 100)
        uncalibrated.calibrationHeadingError = nil
        #expect(feed.heading(uncalibrated).map { String($0.prefix(6)) } == ["$IIXDR"], "no calibration yet: no heading")
        var settling = Self.state(heading: 100)
        settling.headingSettling = true
        #expect(feed.heading(settling).map { String($0.prefix(6)) } == ["$IIXDR"], "the filter still taking up a new calibration: no heading")
        #expect(feed.heading(Self.state(heading: 100)).first?.hasPrefix("$HCHDM") == true)
    }

    /// ROT is the gyro's rate of turn, in degrees per minute: to starboard positive, to port
    /// negative, whatever the heading does.
    @Test func rateOfTurnIsTheGyros() {
        let feed = Feed()
        var state = Self.state(heading: 355)
        state.rateOfTurn = 20
        let rot = feed.heading(state).first { $0.hasPrefix("$HCROT") }
        #expect(rot?.hasPrefix("$HCROT,1200.0,A*") == true, "\(rot ?? "none")")
        state.rateOfTurn = -10
        #expect(feed.heading(state).first { $0.hasPrefix("$HCROT") }?.hasPrefix("$HCROT,-600.0,A*") == true)
    }

    @Test func headingSentencesWithAndWithoutTheDeclination() {
        let feed = Feed()
        var state = Self.state(heading: 100, declination: -3.5)
        state.rateOfTurn = 0
        let known = feed.heading(state)
        #expect(known.map { String($0.prefix(6)) } == ["$HCHDM", "$HCHDG", "$HCHDT", "$HCROT", "$IIXDR"])
        #expect(known.count == 5 && known[1].hasPrefix("$HCHDG,100.0,0.0,E,3.5,W*") && known[2].hasPrefix("$HCHDT,96.5,T*"))
        let unknown = feed.heading(Self.state(heading: 100, declination: nil))
        #expect(!unknown.contains { $0.hasPrefix("$HCHDT") })
        #expect(feed.heading(NavigationState()).isEmpty)
    }

    @Test func onlyRMCAndGGAPassThrough() {
        #expect(NMEAFeed.passesThrough("$GNRMC,1,2*00") && NMEAFeed.passesThrough("$GPGGA,1*00"))
        #expect(!NMEAFeed.passesThrough("$GPGSV,1*00") && !NMEAFeed.passesThrough("$GP"))
    }
}
