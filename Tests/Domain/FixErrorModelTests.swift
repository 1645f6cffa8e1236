import LodestoneCore
import LodestoneDomain
import Testing

/// A fix's errors from its dilutions when the receiver does not state them, and the climb.
@Suite struct FixErrorModelTests {
    @Test func errorsFromTheDilutions() {
        var fix = GPSFix()
        fix.mode = .threeD
        (fix.hdop, fix.pdop, fix.speed) = (1.2, 2.0, 3)
        #expect(FixErrorModel.horizontal(fix) == 6)
        // VDOP from PDOP and HDOP: sqrt(4 - 1.44) = 1.6.
        #expect(abs((FixErrorModel.vertical(fix) ?? .nan) - 12.8) < 1e-9)
        fix.vdop = 2
        #expect(FixErrorModel.vertical(fix) == 16)
        #expect(abs((FixErrorModel.speed(fix) ?? .nan) - 0.24) < 1e-12)
        // The receiver's own figures (GST) stand.
        (fix.eph, fix.epv) = (2.5, 4)
        #expect(FixErrorModel.horizontal(fix) == 2.5 && FixErrorModel.vertical(fix) == 4)
        // No dilution, no error; a 2D fix has no vertical one.
        var bare = GPSFix()
        bare.mode = .twoD
        bare.vdop = 1
        #expect(FixErrorModel.horizontal(bare) == nil && FixErrorModel.vertical(bare) == nil && FixErrorModel.speed(bare) == nil)
    }

    /// Climbing 1 m/s with centimetre noise at 25 Hz: about 1 m/s once a time constant has
    /// passed, nothing before; a gap forgets.
    @Test func climbFromTheBarometer() {
        var climb = ClimbRate()
        var seed: UInt64 = 7
        for step in 0..<250 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let noise = Double(seed >> 40) / Double(1 << 24) * 0.04 - 0.02
            let time = Double(step) / 25
            climb.add(altitude: 400 + time + noise, time: time)
            if time < 2.9 { #expect(climb.metresPerSecond == nil) }
        }
        #expect(abs((climb.metresPerSecond ?? .nan) - 1) < 0.15, "\(climb.metresPerSecond ?? .nan)")
        climb.add(altitude: 420, time: 30)
        #expect(climb.metresPerSecond == nil)
    }
}
