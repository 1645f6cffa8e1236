import LodestoneCore
import LodestoneSim
import LodestoneSettings
import LodestoneBoard
import LodestoneRuntime

/// One trip the referee runs: a scenario on a board, with faults, for a stretch of world time.
public struct RefereeTrip: Sendable {
    public let name: String
    public let scenario: ScenarioName
    public let board: BoardDescription
    public let faults: [SimulatedFault]
    /// World seconds.
    public let duration: Double
    /// What the trip is about, for the table and the README.
    public let summary: String
    /// UTC the trip starts at; nil for the scenarios' summer morning.
    public var startUTC: Double? = nil
    /// A satellite's two-line elements the device is given (its passes announced).
    public var satelliteTLE: String? = nil

    /// Every trip `lodestone verify --scenario all` runs, in order. Every trip calibrates its
    /// compass by itself from uncalibrated: a figure-8 first, or the boat's swing. The trips that judge the
    /// pressure trend run past the 30 minutes the trend needs; the fault trips start their fault
    /// once the device has settled after its figure-8.
    public static let all: [RefereeTrip] = [
        RefereeTrip(
            name: "walk", scenario: .walk, board: .simulatedBoard, faults: [], duration: 2400,
            summary: "figure-8, then a hike with turns, a flip, climbs and a falling barometer"),
        RefereeTrip(
            name: "boat", scenario: .boat, board: .simulatedBoard(in: .boat), faults: [], duration: 2400,
            summary: "a swing (one slow circle under engine, the compass in the hull's iron), then sailing at 3 m/s with swell and heel"),
        RefereeTrip(
            name: "drive", scenario: .drive, board: .simulatedBoard, faults: [], duration: 600,
            summary: "figure-8 in the car park, then 15 m/s with turns and hills"),
        RefereeTrip(
            name: "still", scenario: .still, board: .simulatedBoard, faults: [], duration: 2400,
            summary: "figure-8, then lying on a table"),
        RefereeTrip(
            name: "walk-turned", scenario: .walk, board: .simulatedTurned, faults: [], duration: 400,
            summary: "the walk with the IMU turned a quarter and the magnetometer upside down"),
        RefereeTrip(
            name: "boat-turned", scenario: .boat, board: .simulatedTurned, faults: [], duration: 400,
            summary: "the sail with the turned board"),
        RefereeTrip(
            name: "drive-turned", scenario: .drive, board: .simulatedTurned, faults: [], duration: 400,
            summary: "the drive with the turned board"),
        walk(with: .magnet, named: "magnet", "a magnet held beside the device for 15 s while walking"),
        walk(with: .silentMagnetometer, named: "silent-sensor", "the magnetometer stops answering for 5 s while walking"),
        walk(with: .gpsOutage, named: "gps-outage", "the receiver loses the sky for 30 s while walking"),
        walk(with: .busErrors, named: "bus-errors", "every transfer on the I2C bus fails for 3 s while walking"),
        walk(with: .gpsSilence, named: "gps-silence", "the receiver sends nothing for 30 s while walking"),
        walk(with: .gpsGarbage, named: "gps-garbage", "the receiver's line carries noise for 30 s while walking"),
        walk(with: .diskFull, named: "disk-full", "the data directory's disk is full for 30 s while a track records"),
        RefereeTrip(
            name: "no-magnetometer", scenario: .walk, board: .simulatedWithoutMagnetometer, faults: [], duration: 180,
            summary: "a board with no magnetometer"),
        RefereeTrip(
            name: "night", scenario: .still, board: .simulatedBoard, faults: [], duration: 1_320,
            summary: "lying still in Zurich from 23:30 on midsummer night, given the ISS's elements: its pass overhead is announced",
            startUTC: nightStart, satelliteTLE: nightISS)
    ]

    /// 2026-06-21T21:30:00Z: 23:30 in Zurich, the Sun 16° below the horizon.
    static let nightStart = 1_782_077_400.0
    /// Elements of the ISS's orbit (51.64°, 15.5 revolutions a day) placed so that it rises
    /// in the west-north-west at 21:40 UTC, passes overhead at 21:45 and sets at 21:51, sunlit
    /// over a dark sky: a visible pass 10 minutes into the night trip.
    public static let nightISS = """
        ISS (ZARYA)
        1 25544U 98067A   26172.87500000  .00016717  00000-0  30270-3 0  9995
        2 25544  51.6390 124.0000 0003912  41.7000 252.0000 15.49815827 59991

        """

    /// A 240 s walk with one fault from 150 s, once the device has settled.
    static func walk(with fault: SimulatedFault.Kind, named name: String, _ summary: String) -> RefereeTrip {
        RefereeTrip(
            name: name, scenario: .walk, board: .simulatedBoard, faults: [SimulatedFault(kind: fault, start: 150)],
            duration: 240, summary: summary)
    }

    public static func named(_ name: String) -> RefereeTrip? { all.first { $0.name == name } }

    /// The same trip ended after `duration` world seconds.
    public func shortened(to duration: Double) -> RefereeTrip {
        RefereeTrip(
            name: name, scenario: scenario, board: board, faults: faults, duration: duration,
            summary: summary + ", first \(Int(duration)) s", startUTC: startUTC, satelliteTLE: satelliteTLE)
    }

    /// Whether the trip is free of faults (false warnings are judged there).
    var isClean: Bool { faults.isEmpty }
    var hasMagnetometer: Bool { board.magnetometer != nil }
    /// The world time the calibration manoeuvre ends: every trip starts with one, the
    /// figure-8's turns (30 s) or the boat's swing (120 s).
    var calibrationEnd: Double { Scenario(scenario, figure8First: true).calibrationEnd ?? 30 }
    /// The world the trip runs in.
    var world: Scenario { Scenario(scenario, figure8First: true, startUTC: startUTC) }
    /// The heading error p95 allowed after the calibration, degrees: 1 for a compass calibrated
    /// by a figure-8; 2 for a boat calibrated by its swing and sailing at 6-18 degrees of heel
    /// (a swing cannot see the vertical soft iron, which the heel brings into the heading: the
    /// swing's standard is 1 degree level and 2 at 15 degrees of heel).
    var headingLimit: Double { scenario == .boat ? 2 : 1 }
    /// "the figure-8" or "the swing", for the checks' names.
    var manoeuvre: String { Scenario(scenario, figure8First: true).calibrationName }
    /// When the trip proper starts.
    var tripStart: Double { Scenario(scenario, figure8First: true).preludeLength + (scenario == .walk ? 35 : 0) }
}

extension BoardDescription {
    /// The simulated board with its chips turned as `boards/sim-turned.json` has them.
    public static let simulatedTurned = BoardDescription(
        name: "simulated board: LSM6DS3 turned a quarter left, HMC5883L upside down, MS5611", simulated: true, i2c: "sim:i2c-1",
        imu: Chip(chip: "lsm6ds3", address: 0x6B, mounting: (try? AxisMapping(parsing: "-y,x,z")) ?? .identity),
        magnetometer: Chip(chip: "hmc5883l", address: 0x1E, mounting: (try? AxisMapping(parsing: "x,-y,-z")) ?? .identity),
        barometer: Chip(chip: "ms5611", address: 0x77), gpsPort: "sim:pty", gpsBaud: 9600)

    /// The simulated board without its magnetometer: level, tilt and everything else, no heading.
    public static let simulatedWithoutMagnetometer = BoardDescription(
        name: "simulated board without a magnetometer", simulated: true, i2c: "sim:i2c-1",
        imu: Chip(chip: "mpu6050", address: 0x68), magnetometer: nil,
        barometer: Chip(chip: "bmp280", address: 0x76), gpsPort: "sim:pty", gpsBaud: 9600)
}
