import LodestoneCore
import LodestoneDomain
@testable import LodestoneRuntime
import Testing

/// What the NMEA output makes of the device's state.
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

    /// With the magnetometer failing the heading is the gyro's alone: HDM, HDG, HDT and ROT
    /// are withheld (HDM cannot say it is invalid); pitch and roll still go.
    @Test func anInvalidHeadingIsWithheld() {
        var feed = NMEAFeed()
        var state = Self.state(heading: 100)
        state.magnetometerHealth = .degraded
        #expect(feed.heading(state, now: 0).map { String($0.prefix(6)) } == ["$IIXDR"])
        state.magnetometerHealth = .ok
        state.magnetic = nil
        #expect(feed.heading(state, now: 100_000_000).map { String($0.prefix(6)) } == ["$IIXDR"])
        var uncalibrated = Self.state(heading: 100)
        uncalibrated.calibrationHeadingError = nil
        #expect(feed.heading(uncalibrated, now: 150_000_000).map { String($0.prefix(6)) } == ["$IIXDR"], "no calibration yet: no heading")
        #expect(feed.heading(Self.state(heading: 100), now: 200_000_000).first?.hasPrefix("$HCHDM") == true)
    }

    /// Turning to starboard through north at 20°/s: ROT settles at +1200°/min, and a turn to
    /// port reads negative.
    @Test func rateOfTurnFollowsTheHeadingThroughNorth() {
        var feed = NMEAFeed()
        var sentences: [String] = []
        for step in 0...30 {
            let heading = Angle.heading(350 + Double(step) * 2)
            sentences = feed.heading(Self.state(heading: heading), now: UInt64(step) * 100_000_000)
        }
        let rot = sentences.first { $0.hasPrefix("$HCROT") }.map { Double($0.split(separator: ",")[1]) ?? .nan } ?? .nan
        #expect(abs(rot - 1200) < 60, "\(rot)")
        var port = NMEAFeed()
        for step in 0...30 { sentences = port.heading(Self.state(heading: Angle.heading(10 - Double(step))), now: UInt64(step) * 100_000_000) }
        let left = sentences.first { $0.hasPrefix("$HCROT") }.map { Double($0.split(separator: ",")[1]) ?? .nan } ?? .nan
        #expect(abs(left + 600) < 30, "\(left)")
    }

    @Test func headingSentencesWithAndWithoutTheDeclination() {
        var feed = NMEAFeed()
        let known = feed.heading(Self.state(heading: 100, declination: -3.5), now: 0)
        #expect(known.map { String($0.prefix(6)) } == ["$HCHDM", "$HCHDG", "$HCHDT", "$HCROT", "$IIXDR"])
        #expect(known[1].hasPrefix("$HCHDG,100.0,0.0,E,3.5,W*") && known[2].hasPrefix("$HCHDT,96.5,T*"))
        let unknown = feed.heading(Self.state(heading: 100, declination: nil), now: 100_000_000)
        #expect(!unknown.contains { $0.hasPrefix("$HCHDT") })
        var fresh = NMEAFeed()
        #expect(fresh.heading(NavigationState(), now: 0).isEmpty)
    }

    @Test func onlyRMCAndGGAPassThrough() {
        #expect(NMEAFeed.passesThrough("$GNRMC,1,2*00") && NMEAFeed.passesThrough("$GPGGA,1*00"))
        #expect(!NMEAFeed.passesThrough("$GPGSV,1*00") && !NMEAFeed.passesThrough("$GP"))
    }
}
