import LodestoneCore
import LodestoneDevices
import Testing

/// The fix's dimension and height as gpsd reads a burst: each sentence votes in the order it
/// arrives, the last vote stands, and 2D does not undo 3D while a height is known; Garmin's
/// PGRMZ gives the height the unit shows.
@Suite struct NMEAFixModeTests {
    let sentences = NMEAParserTests()

    /// The fixes of `bodies` (sentences without `$` and checksum), the input closed at the end.
    func fixes(_ bodies: [String]) -> [GPSFix] {
        var framer = NMEAFramer()
        var parser = NMEAParser()
        var out = sentences.parse(bodies.map(sentences.nmea).joined(), framer: &framer, parser: &parser)
        if let last = parser.flush() { out.append(last) }
        return out
    }

    func gga(_ time: String, satellites: String, altitude: String = "545.4") -> String {
        "GPGGA,\(time),4807.038,N,01131.000,E,1,\(satellites),0.9,\(altitude),M,46.9,M,,"
    }

    func rmc(_ time: String, status: String = "A") -> String {
        "GPRMC,\(time),\(status),4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"
    }

    @Test func aHeightFromThreeSatellitesIsNot3D() {
        // The burst opens with RMC (no height known yet), as many receivers send it.
        let three = fixes([rmc("120000"), gga("120000", satellites: "03"), "GPGSA,A,2,04,05,09,,,,,,,,,,4.2,4.1,1.0"])
        #expect(three.first?.mode == .twoD)
        #expect(three.first?.altitudeMSL == 545.4, "the height is reported with the 2D fix, as gpsd does")
        let eight = fixes([rmc("120000"), gga("120000", satellites: "08"), "GPGSA,A,2,04,05,09,,,,,,,,,,4.2,4.1,1.0"])
        #expect(eight.first?.mode == .threeD, "a GSA's 2D does not undo a height solved from eight satellites")
        // An RMC after a height was given in the burst reads it as 3D (an old receiver that
        // sends no GSA that says so), once it is known to close the cycles: gpsd reports
        // nothing after a dated sentence it has not learned closes one, so the first cycle
        // stands as the GSA left it, and the second, closed by its RMC, is 3D.
        let cycle = { (time: String) in [gga(time, satellites: "03"), "GPGSA,A,2,04,05,09,,,,,,,,,,4.2,4.1,1.0", rmc(time)] }
        let after = fixes(cycle("120000") + cycle("120001"))
        #expect(after.count >= 2 && after.first?.mode == .twoD && after.dropFirst().allSatisfy { $0.mode == .threeD }, "\(after.map(\.mode))")
    }

    @Test func theLastVoteStands() {
        // GSA first, then a GGA with a height from eight satellites: 3D.
        let late = fixes(["GPGSA,A,2,04,05,09,,,,,,,,,,4.2,4.1,1.0", gga("120000", satellites: "08"), rmc("120000")])
        #expect(late.first?.mode == .threeD)
        // A GGA without a height, then GSA 3: 3D; GSA 1 after a position: no fix.
        let said3 = fixes([gga("120000", satellites: "05", altitude: ""), "GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1"])
        #expect(said3.first?.mode == .threeD)
        let void = fixes([gga("120000", satellites: "05"), rmc("120000", status: "V")])
        #expect(void.first?.mode == .noFix, "a void RMC after the GGA says there is no fix")
        let differential = fixes([rmc("120000", status: "D"), rmc("120001", status: "D")])
        #expect(differential.first?.latitude.isFinite == true, "an RMC status D is a valid (differential) fix")
        let held = fixes([gga("120000", satellites: "02")])
        #expect(held.first?.mode == .noFix, "fewer than three satellites cannot give a position")
    }

    @Test func aCycleWithoutHeightKeeps3DWhileAHeightIsKnown() {
        // A 5 Hz receiver: GGA and GSA once a second, RMC every cycle.
        let burst = [
            gga("120000.0", satellites: "08"), "GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1", rmc("120000.0"),
            rmc("120000.2"), rmc("120000.4")
        ]
        let all = fixes(burst)
        #expect(all.count == 3)
        #expect(all.allSatisfy { $0.mode == .threeD }, "\(all.map(\.mode))")
        #expect(all.dropFirst().allSatisfy { $0.altitudeMSL.isNaN }, "the height is not carried into cycles that did not give one")
        // Without any height or GSA, RMC alone is 2D.
        #expect(fixes([rmc("120000"), rmc("120001")]).allSatisfy { $0.mode == .twoD })
    }

    @Test func theLastSentenceOfABurstWinsButAnEmptyFieldTakesNothingAway() {
        let gns = "GNGNS,120000.00,4807.040,N,01131.002,E,AA,08,0.9,545.43,46.9,,,S"
        let merged = fixes([gga("120000.00", satellites: "08"), gns]).first
        #expect(merged?.altitudeMSL == 545.43, "the GNS after the GGA stands")
        #expect(abs((merged?.latitude ?? .nan) - (48 + 7.040 / 60)) < 1e-9)
        // A second talker's GGA without a height keeps the first one's.
        let second = "GLGGA,120000.00,4807.040,N,01131.002,E,1,08,99.9,,M,,M,,"
        let kept = fixes([gga("120000.00", satellites: "08"), second]).first
        #expect(kept?.altitudeMSL == 545.4)
        #expect(kept?.hdop == 0.9, "a DOP of 99.9 means none")
        #expect(kept?.mode == .threeD)
        // GNS with the navigational status V (not valid) gives no position.
        let invalid = fixes(["GNGNS,120000.00,4807.040,N,01131.002,E,AA,08,0.9,545.43,46.9,,,V"]).first
        #expect(invalid?.latitude.isNaN ?? true)
    }

    @Test func garminsAltitudeInFeetStandsOverGGAs() {
        let fix = fixes([gga("230151", satellites: "06", altitude: "49.2"), "PGRMZ,161,f,3", rmc("230151")]).first
        #expect(abs((fix?.altitudeMSL ?? .nan) - 161 * 0.3048) < 1e-9)
        // The height above the ellipsoid stays the GGA's, as gpsd keeps it.
        #expect(abs((fix?.altitudeHAE ?? .nan) - (49.2 + 46.9)) < 1e-9)
        // Only Garmin's lower-case f (feet) is read.
        #expect(fixes([gga("230151", satellites: "06", altitude: "49.2"), "PGRMZ,161,F,3", rmc("230151")]).first?.altitudeMSL == 49.2)
        #expect(fix?.mode == .threeD)
        // Metres, an empty or absurd value, or a talker's RMZ are not Garmin's feet.
        for body in ["PGRMZ,161,m,3", "PGRMZ,,f,3", "PGRMZ,1e9,f,3", "GPRMZ,161,f,3"] {
            let other = fixes([gga("230151", satellites: "06", altitude: "49.2"), body, rmc("230151")]).first
            #expect(other?.altitudeMSL == 49.2, "\(body)")
        }
    }

    @Test func receiverTimesAreWrittenToTheNearestMillisecond() {
        let day = Double(CivilTime.days(year: 2006, month: 7, day: 28)) * 86_400
        #expect(CivilTime(unixSeconds: day + 8172.949).iso8601 == "2006-07-28T02:16:12.949Z")
        #expect(CivilTime(unixSeconds: day + 59.9996).iso8601 == "2006-07-28T00:01:00.000Z")
        #expect(CivilTime(unixSeconds: day + 86_399.9999).iso8601 == "2006-07-29T00:00:00.000Z")
    }
}
