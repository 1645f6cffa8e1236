import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneServices

/// What every part of the output thread shares: the sampling side's rings and newest state,
/// the services, the device's one time base, the devices reports name, and the fanout every
/// report leaves by.
final class OutputContext<Clock: MonotonicClock> {
    let outputs: any SamplingOutputs
    let services: OutputServices
    let clock: Clock
    let deviceClock: DeviceClock
    let fanout: OutputFanout
    /// The device names reports carry, as DEVICES lists them: the GPS's port for TPV and SKY,
    /// the IMU's bus address for ATT and IMU, the barometer's for ENV (the board's name when
    /// there is none).
    let gpsDevice: String
    let imuDevice: String
    let barometerDevice: String
    /// The device name ENV carries when only the weather station reports.
    static var stationDevice: String { "station" }
    /// The newest state, with the filtered position and the levelled barometric altitude.
    var latest = NavigationState()
    /// The time of the state the output side follows now (`SampleIntake`): the output side's
    /// one "now". Reports are stamped and decided by it, so they follow from the samples, not
    /// from when this thread ran; 0 until the first state.
    var sampleTime: MonotonicNanoseconds = 0
    /// The output side's now on the device's monotonic clock: the followed state's time.
    var now: MonotonicNanoseconds { sampleTime != 0 ? sampleTime : clock.now() }
    /// The newest Zambretti forecast ENV carried: departures and waves give it for their 12 hours.
    var outlook: WeatherOutlook?

    init(
        outputs: any SamplingOutputs, services: OutputServices, clock: Clock, deviceClock: DeviceClock, fanout: OutputFanout,
        devices: [DeviceEntry], boardName: String
    ) {
        self.outputs = outputs
        self.services = services
        self.clock = clock
        self.deviceClock = deviceClock
        self.fanout = fanout
        gpsDevice = devices.first { $0.role == .gps }?.path ?? boardName
        imuDevice = devices.first { $0.role == .imu }?.path ?? boardName
        barometerDevice = devices.first { $0.role == .barometer }?.path ?? boardName
    }

    /// Hands a report to every output.
    func send(_ report: Report) { fanout.send(report, utc: utcNow) }

    /// `send` for a sampled report whose kind, device and time the caller knows (see `OutputFanout`).
    func send(_ report: Report, kind: ReportKind, device: String, time: Double) {
        fanout.send(report, kind: kind, device: device, time: time, utc: utcNow)
    }

    /// UTC now on the device's one time base, following the GPS's time as fixes come.
    func utcNow() -> Double {
        if latest.fix.hasPosition, let utc = latest.fix.utc, latest.fix.received != 0,
            deviceClock.gpsTime(utc, receivedAt: latest.fix.received)
        {
            services.chronicle?.clockChanged(to: utc)
        }
        return deviceClock.now(now)
    }

    /// A fix as TPV carries it: with its errors, the climb and the magnetic variation.
    func positionReport(_ fix: GPSFix) -> PositionReport {
        var fix = fix
        if let eph = FixErrorModel.horizontal(fix) { fix.eph = eph }
        if let epv = FixErrorModel.vertical(fix) { fix.epv = epv }
        var report = PositionReport(fix: fix, device: gpsDevice, confidence: services.positions?.confidence)
        report.speedError = FixErrorModel.speed(fix)
        report.warnings = services.positions?.warnings ?? []
        if fix.hasPosition {
            report.climb = services.chronicle?.weather.climb.metresPerSecond
            report.magneticVariation = latest.declination
        }
        return report
    }

    /// The filtered position's one-sigma error (m), for snapshots.
    var positionAccuracy: Double { services.positions.map { PositionService.sigma($0.fix) } ?? .nan }
}
