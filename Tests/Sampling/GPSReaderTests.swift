import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import Testing
@testable import LodestoneSampling

/// The receiver's half of the sampling thread on its own: NMEA bytes on a line in, the fix,
/// the satellites and the raw sentences out, timed by the burst and the pulse.
@Suite struct GPSReaderTests {
    /// A receiver's pulse line with the edges it has seen.
    final class PulseLine: DigitalInput {
        var pending: [EdgeEvent]
        init(_ pending: [EdgeEvent]) { self.pending = pending }
        func value() throws(GPIOError) -> Bool { false }
        func takeEvents(_ body: (EdgeEvent) -> Void) throws(GPIOError) -> Int {
            let taken = pending
            pending = []
            for edge in taken { body(edge) }
            return taken.count
        }
    }

    /// A serial port that hands out its bytes once.
    final class ScriptedPort: SerialPort {
        var pending: [UInt8]
        init(_ text: String) { pending = Array(text.utf8) }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
            let count = min(buffer.count, pending.count)
            for index in 0..<count { buffer[index] = pending[index] }
            pending.removeFirst(count)
            return count
        }
        func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int { bytes.count }
    }

    /// A sentence with its checksum and line end.
    static func nmea(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        let digits = Array("0123456789ABCDEF")
        let high = digits.dropFirst(Int(checksum >> 4)).first ?? "0", low = digits.dropFirst(Int(checksum & 15)).first ?? "0"
        return "$" + body + "*" + String(high) + String(low) + "\r\n"
    }

    static func reader(_ text: String, pulse: (any DigitalInput)? = nil, clock: ManualClock) -> (
        GPSReader<NMEADecoder>, fixes: SPSCRing<GPSFix>, sky: SPSCRing<SkyItem>, sentences: SPSCRing<RawSentence>
    ) {
        let fixes = SPSCRing<GPSFix>(capacity: 8, policy: .dropNewest)
        let sky = SPSCRing<SkyItem>(capacity: 16, policy: .overwriteOldest)
        let sentences = SPSCRing<RawSentence>(capacity: 16, policy: .overwriteOldest)
        let reader = GPSReader(
            port: ScriptedPort(text), decoder: NMEADecoder(), pulse: pulse, clock: clock, fixes: fixes, sky: sky, sentences: sentences)
        return (reader, fixes, sky, sentences)
    }

    /// NMEA 0183's own example epoch (Munich, 12:35:19 UTC): 4807.038 N is 48.1173 degrees,
    /// 01131.000 E is 11.516667, 022.4 knots is 11.5236 m/s.
    static let epoch =
        Self.nmea("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        + Self.nmea("GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")

    @Test func theBurstsFixComesOutWhenTheLineGoesQuiet() throws {
        let clock = ManualClock(start: 10_000_000_000)
        let pulse = PulseLine([EdgeEvent(rising: true, time: 9_900_000_000), EdgeEvent(rising: false, time: 9_950_000_000)])
        let (reader, fixes, _, sentences) = Self.reader(Self.epoch, pulse: pulse, clock: clock)
        var state = NavigationState()
        #expect(reader.read(into: &state) == 10_000_000_000)
        #expect(!state.fix.hasPosition, "the cycle is still open while the burst may go on")
        clock.advance(by: 100_000_000)
        #expect(reader.read(into: &state) == 10_100_000_000)
        var published: [GPSFix] = []
        fixes.drain { published.append($0) }
        #expect(published.count == 1)
        let fix = try #require(published.first)
        #expect(abs(fix.latitude - 48.1173) < 1e-9)
        #expect(abs(fix.longitude - (11 + 31.0 / 60)) < 1e-9)
        #expect(abs(fix.altitudeMSL - 545.4) < 1e-9)
        #expect(abs(fix.speed - 22.4 * 1852 / 3600) < 1e-6)
        #expect(abs(fix.course - 84.4) < 1e-9)
        #expect(fix.burstBytes == Int32(Self.epoch.utf8.count), "the whole burst was this fix's")
        #expect(fix.pulse == 9_900_000_000, "the rising edge before the burst")
        #expect(state.fix.latitude == fix.latitude, "the state carries the same fix")
        var relayed = 0
        sentences.drain { _ in relayed += 1 }
        #expect(relayed == 2)
    }

    @Test func healthFollowsTheFixesPace() {
        let clock = ManualClock(start: 10_000_000_000)
        let (reader, _, _, _) = Self.reader(Self.epoch, clock: clock)
        var state = NavigationState()
        reader.judgeHealth(fixInterval: 1, into: &state, at: clock.now())
        #expect(state.gpsHealth == .degraded, "no fix yet")
        _ = reader.read(into: &state)
        clock.advance(by: 100_000_000)
        _ = reader.read(into: &state)
        reader.judgeHealth(fixInterval: 1, into: &state, at: clock.now())
        #expect(state.gpsHealth == .ok)
        // Three missed fixes at 1 s: no longer healthy; at 2 s the same silence is one and a half.
        clock.advance(by: 3_000_000_000)
        reader.judgeHealth(fixInterval: 1, into: &state, at: clock.now())
        #expect(state.gpsHealth == .degraded)
        reader.judgeHealth(fixInterval: 2, into: &state, at: clock.now())
        #expect(state.gpsHealth == .ok)
    }

    @Test func aSatelliteCycleGoesOutWhole() throws {
        let text =
            Self.nmea("GPGSV,1,1,02,01,40,083,46,02,17,308,41")
            + Self.nmea("GPGSA,A,3,01,02,,,,,,,,,,,2.5,1.3,2.1")
        let clock = ManualClock()
        let (reader, _, sky, _) = Self.reader(text, clock: clock)
        var state = NavigationState()
        _ = reader.read(into: &state)
        var items: [SkyItem] = []
        sky.drain { items.append($0) }
        try #require(items.count == 2)
        #expect(items.map(\.satellite.prn) == [1, 2])
        #expect(items.map(\.endsCycle) == [false, true])
        #expect(items.map(\.satellite.elevation) == [40, 17])
        #expect(items.map(\.satellite.azimuth) == [83, 308])
        #expect(reader.counts == ReceiverCounts(accepted: 2, rejected: 0, overlong: 0, garbled: 0))
    }
}
