import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs
import LodestoneReports
@testable import LodestoneRuntime
import Testing
import Glibc
@testable import LodestoneEncoding
@testable import LodestoneSampling

/// A receiver line carrying sentences no receiver can send: the sampling side drops them before
/// the fix or the raw relay sees them, and HEALTH's `gps` counts them with the last reason.
@Suite struct GPSRejectedHealthTests {
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

    static func nmea(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        let digits = Array("0123456789ABCDEF")
        return "$" + body + "*" + String(digits[Int(checksum >> 4)]) + String(digits[Int(checksum & 15)]) + "\r\n"
    }

    @Test func healthCountsTheDroppedSentencesWithTheLastReason() throws {
        let text =
            Self.nmea("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            + Self.nmea("GPGGA,123520.00,4807.038,N,01131.000,E,1,08,0.9,235960,M,46.9,M,,")
            + Self.nmea("GPRMC,123520.00,A,4807.038,N,01131.000,E,539956.3,235960,230394,,")
            + Self.nmea("GPVTG,235960,T,,M,539956.3,N,999999.6,K,A")
        let clock = ManualClock()
        let pipeline = SensorPipeline(clock: clock, imu: nil, magnetometer: nil, barometer: nil, gps: ScriptedPort(text), qnh: 1013.25)
        pipeline.pollGPS()
        pipeline.process()
        let state = pipeline.newestState
        #expect(state.gpsRejected == 3)
        var relayed = 0
        _ = pipeline.sentenceRing.drain { _ in relayed += 1 }
        #expect(relayed == 1, "only the plausible sentence is passed on raw")
        let line = GPSDReports.health(HealthReport(state: state, loop: LoopStatistics(), tasks: [], ringOverflows: 0, clients: 0))
        let report = try JSONValue.parse(line)
        #expect(report["gps"]?["rejected"]?.numberValue == 3, "\(line)")
        #expect(report["gps"]?["rejectedReason"]?.stringValue == "speed 277777.7 m/s outside 0-515 m/s", "\(line)")
    }

    /// `lodestone nmea` on the three sentences: no TPV carries their track, speed or altitude,
    /// and standard error counts them.
    @Test func theCommandPrintsNoImpossibleFix() throws {
        let path = "/tmp/lodestone-impossible-\(getpid()).nmea"
        defer { unlink(path) }
        let text =
            Self.nmea("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            + Self.nmea("GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,,")
            + Self.nmea("GPGGA,123520.00,4807.038,N,01131.000,E,1,08,0.9,235960,M,46.9,M,,")
            + Self.nmea("GPRMC,123520.00,A,4807.038,N,01131.000,E,539956.3,235960,230394,,")
            + Self.nmea("GPVTG,235960,T,,M,539956.3,N,999999.6,K,A")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        let end = EndToEndTests()
        let (status, output) = end.finish(try end.spawn(["nmea", path]))
        #expect(status == 0, "\(output)")
        let reports = output.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }.filter { $0["class"]?.stringValue == "TPV" }
        #expect(reports.count == 1, "the one plausible epoch: \(output)")
        for tpv in reports {
            #expect(
                (tpv["track"]?.numberValue ?? 0) <= 360 && (tpv["speed"]?.numberValue ?? 0) <= 515
                    && (tpv["altMSL"]?.numberValue ?? 0) <= 18_000, "\(tpv)")
        }
        let printed = output.split(separator: "\n").filter { $0.hasPrefix("{") }.joined(separator: "\n")
        #expect(!printed.contains("235960") && !printed.contains("277777"), "\(printed)")
        #expect(output.contains("3 dropped for an impossible field"), "\(output)")
    }
}
