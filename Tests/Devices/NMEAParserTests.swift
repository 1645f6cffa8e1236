import LodestoneCore
import LodestoneDevices
import Testing

/// NMEA framing and parsing on hand-checked sentences (positions worked out by hand from the
/// ddmm.mmmm fields) and on hostile input.
@Suite struct NMEAParserTests {
    /// Feeds text through the framer and parser; returns the fixes completed.
    func parse(_ text: String, framer: inout NMEAFramer, parser: inout NMEAParser) -> [GPSFix] {
        var fixes: [GPSFix] = []
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            framer.feed(raw) { sentence in
                if let fix = parser.parse(sentence, received: 1) { fixes.append(fix) }
            }
        }
        return fixes
    }

    /// A sentence with its checksum worked out here.
    func nmea(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        let digits = Array("0123456789ABCDEF")
        return "$" + body + "*" + String(digits[Int(checksum >> 4)]) + String(digits[Int(checksum & 15)]) + "\r\n"
    }

    func cycle(_ time: String) -> String {
        nmea("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            + nmea("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1")
            + nmea("GPRMC,\(time),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
    }

    @Test func checksumsMatchHandWorkedOnes() {
        #expect(nmea("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1") == "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39\r\n")
    }

    @Test func mergesOneCycleIntoAFix() throws {
        var framer = NMEAFramer()
        var parser = NMEAParser()
        var fixes = parse(cycle("123519.00"), framer: &framer, parser: &parser)
        // The first cycle completes when the next one starts (the parser is still learning).
        fixes += parse(cycle("123520.00"), framer: &framer, parser: &parser)
        let fix = try #require(fixes.first)
        #expect(abs(fix.latitude - (48 + 7.038 / 60)) < 1e-9)
        #expect(abs(fix.longitude - (11 + 31.0 / 60)) < 1e-9)
        #expect(fix.altitudeMSL == 545.4)
        #expect(abs(fix.altitudeHAE - 592.3) < 1e-9)
        #expect(fix.mode == .threeD)
        #expect(fix.satellitesUsed == 8)
        #expect(fix.hdop == 1.3)
        #expect(fix.pdop == 2.5)
        #expect(abs(fix.speed - 22.4 * 1852 / 3600) < 1e-9)
        #expect(fix.course == 84.4)
        #expect(fix.utc == CivilTime(year: 1994, month: 3, day: 23, hour: 12, minute: 35, second: 19).unixSeconds)
        // Having learned that RMC closes a cycle, the next fix comes out with its RMC.
        let third = parse(cycle("123521.00"), framer: &framer, parser: &parser)
        #expect(third.count == 1)
    }

    @Test func rejectsBadChecksumsAndGarbage() {
        var framer = NMEAFramer()
        var parser = NMEAParser()
        let hostile =
            "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*00\r\n"  // wrong checksum
            + "$GPGGA,123519,4807.038,N\r\n"  // no checksum
            + "\u{0}\u{1}\u{FF}binary$\u{2}\r\n"
            + "$" + String(repeating: "A", count: 500) + "\r\n"  // overlong
            + "$GPRMC,,V,,,,,,,,,,N*53\r\n"  // valid, no fix
        let fixes = parse(hostile, framer: &framer, parser: &parser)
        #expect(fixes.isEmpty)
        #expect(parser.rejected == 2)
        #expect(framer.overlong == 1)
        #expect(framer.garbled >= 1)
        #expect(parser.accepted == 1)
    }

    @Test func survivesRandomBytes() {
        var framer = NMEAFramer()
        var parser = NMEAParser()
        var state: UInt64 = 42
        var bytes = [UInt8](repeating: 0, count: 200_000)
        for index in bytes.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let r = UInt8(truncatingIfNeeded: state >> 56)
            bytes[index] = r % 5 == 0 ? [UInt8(ascii: "$"), UInt8(ascii: ","), UInt8(ascii: "*"), 13, 10][Int(r) % 5] : r
        }
        var fixes = 0
        bytes.withUnsafeBytes { raw in
            framer.feed(raw) { sentence in if parser.parse(sentence, received: 0) != nil { fixes += 1 } }
        }
        #expect(fixes == 0)
    }

    @Test func fieldsParseNumbersStrictly() {
        let sentence = "$GPXXX,12.5,-3,abc,,1.2.3,0459.9999,S*"
        var checksum: UInt8 = 0
        for byte in sentence.utf8.dropFirst().dropLast() { checksum ^= byte }
        let hexDigits = Array("0123456789ABCDEF")
        let full = sentence + String(hexDigits[Int(checksum >> 4)]) + String(hexDigits[Int(checksum & 15)])
        let bytes = Array(full.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            guard let fields = NMEAFields(buffer) else { Issue.record("valid sentence rejected"); return }
            #expect(fields.number(1) == 12.5)
            #expect(fields.number(2) == -3)
            #expect(fields.number(3).isNaN)
            #expect(fields.isEmpty(4))
            #expect(fields.number(5).isNaN)
            #expect(abs(fields.coordinate(6, hemisphere: 7) + (4 + 59.9999 / 60)) < 1e-12)
            #expect(fields.number(99).isNaN)
        }
    }

    /// The split (eight bytes at a time) against the plain reading: every field of sentences
    /// of every length from 5 to 120 bytes, commas anywhere, more fields than the 24 kept
    /// (the last kept one then runs to the end), and the checksum over all of it.
    @Test func fieldsSplitAsAPlainReadingDoes() {
        var state: UInt64 = 0x5EED
        let alphabet = Array("0123456789.,-,,NAGPS".utf8)
        for length in 5...120 {
            for _ in 0..<8 {
                var body: [UInt8] = []
                for _ in 0..<length {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    body.append(alphabet[Int(state >> 33) % alphabet.count])
                }
                var checksum: UInt8 = 0
                for byte in body { checksum ^= byte }
                let hex = Array("0123456789ABCDEF".utf8)
                let bytes = [UInt8(ascii: "$")] + body + [UInt8(ascii: "*"), hex[Int(checksum >> 4)], hex[Int(checksum & 15)]]
                // The plain reading: split at commas, the 24th field keeping the rest.
                var expected = body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(Array.init)
                if expected.count > 24 {
                    let kept = expected.prefix(23).reduce(0) { $0 + $1.count + 1 }
                    expected = Array(expected.prefix(23)) + [Array(body[kept...])]
                }
                bytes.withUnsafeBufferPointer { buffer in
                    guard let fields = NMEAFields(buffer) else {
                        Issue.record("a sentence of \(length) bytes with a good checksum was rejected")
                        return
                    }
                    #expect(fields.count == expected.count)
                    for (index, field) in expected.enumerated() {
                        #expect(fields.isEmpty(index) == field.isEmpty)
                        #expect(fields.character(index) == (field.first ?? 0))
                    }
                }
                var damaged = bytes
                if let last = damaged.indices.last { damaged[last] = damaged[last] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0") }
                damaged.withUnsafeBufferPointer { #expect(NMEAFields($0) == nil) }
            }
        }
    }
}
