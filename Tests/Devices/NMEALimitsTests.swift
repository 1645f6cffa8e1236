import LodestoneCore
@testable import LodestoneDevices
import Testing

/// Fields no receiver can report (a speed above 515 m/s, an altitude outside -500 to 18,000 m,
/// a course outside 0-360, a negative DOP) drop their sentence whole, checksum or not.
@Suite struct NMEALimitsTests {
    func nmea(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        let digits = Array("0123456789ABCDEF")
        return "$" + body + "*" + String(digits[Int(checksum >> 4)]) + String(digits[Int(checksum & 15)]) + "\r\n"
    }

    func parse(_ text: String, _ parser: inout NMEAParser) -> [GPSFix] {
        var framer = NMEAFramer()
        var fixes: [GPSFix] = []
        Array(text.utf8).withUnsafeBytes { raw in
            framer.feed(raw) { sentence in
                if let fix = parser.parse(sentence, received: 1) { fixes.append(fix) }
            }
        }
        if let last = parser.flush() { fixes.append(last) }
        return fixes
    }

    /// A track of 235,960°, a speed of 277,777 m/s and an altitude of 235,960 m, each with a
    /// valid checksum, after a plausible cycle.
    var impossible: String {
        nmea("GPGGA,123520.00,4807.038,N,01131.000,E,1,08,0.9,235960,M,46.9,M,,")
            + nmea("GPRMC,123520.00,A,4807.038,N,01131.000,E,539956.3,235960,230394,,")
            + nmea("GPVTG,235960,T,,M,539956.3,N,999999.6,K,A")
    }

    var plausible: String {
        nmea("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            + nmea("GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,,")
    }

    @Test func impossibleSentencesAreDroppedWholeAndCounted() {
        var parser = NMEAParser()
        let fixes = parse(plausible + impossible, &parser)
        #expect(parser.outOfLimits == 3)
        #expect(parser.accepted == 2)
        #expect(parser.lastOutOfLimits == .speed(999_999.6 / 3.6), "the last dropped is VTG, its speed checked first")
        #expect(fixes.count == 1, "the dropped sentences start no cycle of their own")
        for fix in fixes {
            #expect(fix.altitudeMSL == 545.4 && fix.course == 84.4 && abs(fix.speed - 22.4 * 1852 / 3600) < 1e-9, "\(fix)")
        }
    }

    @Test func eachLimitHasItsReason() {
        let cases: [(String, ImpossibleGPSField)] = [
            ("GPRMC,123519.00,A,4807.038,N,01131.000,E,1002,084.4,230394,,", .speed(1002 * 1852 / 3600)),
            ("GPVTG,84.4,T,,M,,N,-3.6,K,A", .speed(-1)),
            ("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,-501,M,46.9,M,,", .altitude(-501)),
            ("GPGNS,123519.00,4807.038,N,01131.000,E,AA,08,0.9,18000.5,46.9,,", .altitude(18_000.5)),
            ("GPRMC,123519.00,A,4807.038,N,01131.000,E,1.0,360.1,230394,,", .course(360.1)),
            ("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,-0.5,2.1", .dilution(-0.5)),
            ("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,-1.2,545.4,M,46.9,M,,", .dilution(-1.2)),
            ("PGRMZ,59100,f,3", .altitude(59_100 * 0.3048))
        ]
        for (body, reason) in cases {
            var parser = NMEAParser()
            _ = parse(nmea(body), &parser)
            #expect(parser.outOfLimits == 1 && parser.lastOutOfLimits == reason, "\(body): \(String(describing: parser.lastOutOfLimits))")
        }
        // At the limits, and with the fields left empty, the sentences stand.
        var parser = NMEAParser()
        _ = parse(
            nmea("GPRMC,123519.00,A,4807.038,N,01131.000,E,1000.0,360.0,230394,,")
                + nmea("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,,18000,M,46.9,M,,")
                + nmea("GPGSA,A,1,,,,,,,,,,,,,,,")
                + nmea("GPVTG,,T,,M,,N,,K,N"), &parser)
        #expect(parser.outOfLimits == 0 && parser.accepted == 4)
        // A DOP of 0 is a receiver's "none" (haicom-305N in 2D, jl-micro, SkyTraq): the sentence
        // stands, the fix carries no DOP.
        var zero = NMEAParser()
        _ = parse(
            nmea("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.0,545.4,M,46.9,M,,")
                + nmea("GPGSA,A,2,05,12,30,,,,,,,,,,17.0,17.0,0.0"), &zero)
        #expect(zero.outOfLimits == 0 && zero.fix.vdop.isNaN && zero.fix.hdop == 17, "\(zero.fix)")
        #expect(ImpossibleGPSField.speed(277_777.3).description == "speed 277777.3 m/s outside 0-515 m/s")
    }

    /// The parser's sentence types are literals: each must be what `NMEAFields.type` packs.
    @Test func sentenceTypeLiteralsMatchTheirNames() {
        let types: [(UInt32, StaticString)] = [
            (NMEAParser.gga, "GGA"), (NMEAParser.rmc, "RMC"), (NMEAParser.gsa, "GSA"),
            (NMEAParser.gsv, "GSV"), (NMEAParser.vtg, "VTG"), (NMEAParser.gll, "GLL"),
            (NMEAParser.gns, "GNS"), (NMEAParser.zda, "ZDA"), (NMEAParser.gst, "GST"),
            (NMEAParser.rmz, "RMZ")
        ]
        for (value, name) in types { #expect(value == NMEAFields.type(name), "\(name)") }
    }
}
