import LodestoneOutputs
import Testing

/// The NMEA 0183 output's sentences: checksums, field layout and units.
@Suite struct NMEAOutputSentenceTests {
    /// The checksum of the GGA example printed in most NMEA references.
    @Test func checksumsMatchThePublishedExample() {
        #expect(
            NMEAOutputSentences.sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
                == "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47")
    }

    @Test func headingSentences() {
        #expect(NMEAOutputSentences.hdm(5.04).hasPrefix("$HCHDM,5.0,M*"))
        #expect(NMEAOutputSentences.hdt(359.96).hasPrefix("$HCHDT,360.0,T*"))
        #expect(NMEAOutputSentences.hdg(271.25, variation: -2.34).hasPrefix("$HCHDG,271.3,0.0,E,2.3,W*"))
        #expect(NMEAOutputSentences.hdg(10, variation: nil).hasPrefix("$HCHDG,10.0,0.0,E,,*"))
        #expect(NMEAOutputSentences.rot(degreesPerMinute: -12.34).hasPrefix("$HCROT,-12.3,A*"))
        #expect(NMEAOutputSentences.rot(degreesPerMinute: .nan).hasPrefix("$HCROT,,V*"))
    }

    /// Standard atmosphere: 1013.25 hPa is 1.01325 bar and 29.921 inches of mercury.
    @Test func pressureInBarAndInchesOfMercury() {
        #expect(NMEAOutputSentences.xdrBarometer(pascal: 101_325, celsius: 15).hasPrefix("$IIXDR,P,1.01325,B,Barometer,C,15.0,C,AirTemp*"))
        #expect(NMEAOutputSentences.mda(pascal: 101_325, celsius: -3.25, humidity: 61).hasPrefix("$WIMDA,29.921,I,1.0133,B,-3.3,C,,C,61.0,,,C,,T,,M,,N,,M*"))
        #expect(NMEAOutputSentences.xdrAttitude(pitch: -4.56, roll: 12).hasPrefix("$IIXDR,A,-4.6,D,PTCH,A,12.0,D,ROLL*"))
    }

    /// Every sentence's checksum is the XOR of the bytes between $ and *, and none is longer
    /// than the standard's 82 characters.
    @Test func everySentenceIsWellFormed() {
        let all = [
            NMEAOutputSentences.hdm(123.4), NMEAOutputSentences.hdt(0), NMEAOutputSentences.hdg(359.9, variation: 13.1),
            NMEAOutputSentences.rot(degreesPerMinute: 999.9), NMEAOutputSentences.xdrAttitude(pitch: 89.9, roll: -179.9),
            NMEAOutputSentences.xdrBarometer(pascal: 98_765.4, celsius: -40), NMEAOutputSentences.mda(pascal: 98_765.4, celsius: 45.5, humidity: nil)
        ]
        for sentence in all {
            let body = sentence.dropFirst().prefix { $0 != "*" }
            var sum: UInt8 = 0
            for byte in body.utf8 { sum ^= byte }
            let hex = sentence.split(separator: "*").last.map(String.init) ?? ""
            #expect(UInt8(hex, radix: 16) == sum && hex.count == 2, "\(sentence)")
            #expect(sentence.count <= 82, "\(sentence)")
        }
    }
}
