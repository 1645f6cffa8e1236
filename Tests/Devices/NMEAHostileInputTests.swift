import LodestoneCore
import LodestoneDevices
import Testing

/// Garbage, truncation, binary and hostile sentences (valid checksums over nonsense fields)
/// never crash the parser, never make a fix out of an invalid line, and never make an
/// impossible one.
@Suite struct NMEAHostileInputTests {
    static let good = [
        "$GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
        "$GNRMC,123519.00,A,4807.038,N,01131.000,E,0.022,84.4,230394,,,A",
        "$GPGSV,3,1,11,04,56,046,45,05,19,289,40,09,36,221,44,12,42,110,46",
        "$GNGNS,123519.00,4807.038,N,01131.000,E,AN,08,0.9,545.4,46.9,,",
        "$GPGST,123519.00,1.2,2.1,1.4,45,1.1,1.3,2.2",
        "$GPZDA,123519.00,23,03,1994,00,00"
    ]

    static func checksummed(_ body: [UInt8]) -> [UInt8] {
        var sum: UInt8 = 0
        for byte in body.dropFirst() { sum ^= byte }
        let digits = Array("0123456789ABCDEF".utf8)
        return body + [UInt8(ascii: "*"), digits[Int(sum >> 4)], digits[Int(sum & 15)]]
    }

    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 17
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    }

    @Test func randomBytesNeverMakeAFix() {
        var random = Random(state: 1)
        var parser = NMEAParser()
        for _ in 0..<20_000 {
            let length = random.below(120)
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if random.below(2) == 0, !bytes.isEmpty { bytes[0] = UInt8(ascii: "$") }
            let fix = bytes.withUnsafeBufferPointer { parser.parse($0, received: 0) }
            #expect(fix == nil)
        }
        #expect(parser.rejected > 19_000)
    }

    @Test func mutatedSentencesWithValidChecksumsStayWithinReason() {
        var random = Random(state: 7)
        var parser = NMEAParser()
        var fixes = 0
        for round in 0..<30_000 {
            var body = Array(Self.good[round % Self.good.count].utf8)
            for _ in 0..<random.below(4) {
                switch random.below(4) {
                case 0: if body.count > 2 { body[1 + random.below(body.count - 1)] = UInt8(truncatingIfNeeded: random.next()) }
                case 1: if body.count > 2 { body.removeSubrange((1 + random.below(body.count - 1))...) }
                case 2: body.insert(contentsOf: Array(repeating: UInt8(ascii: ","), count: random.below(30)), at: 1 + random.below(body.count - 1))
                default: body.insert(contentsOf: Array("9999999999999999999999".utf8), at: 1 + random.below(body.count - 1))
                }
            }
            let sentence = Self.checksummed(body)
            if let fix = sentence.withUnsafeBufferPointer({ parser.parse($0, received: 0) }) {
                fixes += 1
                if fix.latitude.isFinite { #expect(abs(fix.latitude) <= 90) }
                if fix.longitude.isFinite { #expect(abs(fix.longitude) <= 180) }
                #expect(parser.sky.count <= SatelliteView.capacity)
            }
        }
        #expect(fixes > 0, "the unmutated sentences still make fixes")
    }
}
