import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneEncoding

/// What writing one gpsd report costs: machine instructions (callgrind, switched on inside
/// `GPSDReports.write` only) for a TPV of a full 3D fix and a SKY of 20 satellites, each
/// written into a buffer kept from report to report, as the socket does.
public enum ReportCostBench {
    /// A fix with every field a receiver gives.
    static var position: Report {
        var fix = GPSFix()
        (fix.mode, fix.utc, fix.latitude, fix.longitude) = (.threeD, 1_782_028_801.25, 47.376_905_334, 8.541_700_222)
        (fix.altitudeMSL, fix.geoidSeparation, fix.altitudeHAE) = (408.1, 47.5, 455.6)
        (fix.course, fix.speed, fix.eph, fix.epv) = (30.2, 1.375, 3.2, 5.1)
        return .position(PositionReport(fix: fix, device: "/dev/ttyAMA0", confidence: 97))
    }

    /// Twenty satellites, most of them used.
    static var satellites: Report {
        let list = (0..<20).map { index in
            Satellite(prn: index + 1, elevation: Double(index * 4 + 5), azimuth: Double(index * 17 % 360), snr: Double(20 + index), used: index % 4 != 0)
        }
        return .satellites(SatelliteReport(satellites: list, hdop: 0.9, pdop: 1.6, vdop: 1.3, device: "/dev/ttyAMA0"))
    }

    /// Writes `count` reports of `kind` ("tpv" or "sky"); returns the bytes of the last, so the
    /// optimiser cannot drop the work.
    public static func kernel(_ kind: String, reports count: Int) -> Int {
        let report = kind == "sky" ? satellites : position
        var json = JSONBuffer(capacity: 4096)
        for _ in 0..<count { GPSDReports.write(report, into: &json) }
        return json.count
    }

    /// Instructions per TPV and per SKY report; nil with a note when valgrind is missing.
    public static func run(reports count: Int = 10_000) -> (tpv: Double?, sky: Double?, note: String?) {
        let (tpv, note) = Callgrind.count(kernel: "tpv", functions: ["*GPSDReportsO5write_4into*ztFZ"], count: count)
        let (sky, _) = Callgrind.count(kernel: "sky", functions: ["*GPSDReportsO5write_4into*ztFZ"], count: count)
        return (tpv?.first, sky?.first, note)
    }
}
