import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneOutputs
import LodestoneSim
import LodestoneEncoding
import LodestoneReports
import LodestoneSampling
import LodestoneSettings
import LodestoneBoard

/// `lodestone probe`: which supported chips answer on an I2C bus, found by their ID
/// registers (never by writing to them), and the board-file entries that would use them.
public enum Probe {
    public struct Finding: Sendable, Equatable {
        public var address: UInt8
        public var chip: ChipInfo
    }

    public struct Report: Sendable {
        public var bus: String
        public var findings: [Finding]
        /// Addresses a kernel driver owns; they were not touched.
        public var claimedByKernel: [UInt8]
        /// V4L2 devices that capture by streaming (cameras), by path.
        public var cameras: [String] = []
    }

    /// Probes a Linux bus: "1" or "/dev/i2c-1".
    public static func linux(bus: String) throws(I2CError) -> Report {
        let path = bus.hasPrefix("/") ? bus : "/dev/i2c-" + bus
        let adapter = try LinuxI2CBus(path: path)
        var claimed: [UInt8] = []
        let found = DriverCatalog<LinuxI2CBus>.identifyAll(on: adapter) { address in
            let owned = adapter.isClaimedByKernel(address)
            if owned { claimed.append(address) }
            return owned
        }
        return Report(
            bus: path, findings: found.map { Finding(address: $0.address, chip: $0.chip) }, claimedByKernel: claimed,
            cameras: V4L2Camera.captureDevices())
    }

    /// Probes the simulated board's bus, with the chips a board file puts there.
    public static func simulated(board: BoardDescription = .simulatedBoard) -> Report {
        let bus = SimulatedI2CBus()
        let clock = ManualClock()
        let truth = FixedTruth()
        for chip in [board.imu, board.magnetometer, board.barometer].compactMap({ $0 }) {
            for (address, target) in SimulatedBoard.emulators(for: chip, truth: truth, clock: clock, seed: 1) {
                bus.attach(target, at: address)
            }
        }
        let found = DriverCatalog<SimulatedI2CBus>.identifyAll(on: bus)
        return Report(
            bus: board.i2c, findings: found.map { Finding(address: $0.address, chip: $0.chip) }, claimedByKernel: [],
            cameras: board.camera.map { [$0.device] } ?? [])
    }

    /// The board-file lines for what was found: the first chip of each kind.
    public static func boardSnippet(_ report: Report) -> String {
        var lines = ["  \"i2c\": \"\(report.bus)\""]
        for kind in SensorKind.allCases {
            guard let finding = report.findings.first(where: { $0.chip.kind == kind }) else { continue }
            lines.append("  \"\(kind.rawValue)\": { \"chip\": \"\(finding.chip.name)\", \"address\": \"\(hexByte(finding.address))\" }")
        }
        if let camera = report.cameras.first { lines.append("  \"camera\": { \"device\": \"\(camera)\" }") }
        return "{\n" + lines.joined(separator: ",\n") + "\n}"
    }

    public static func json(_ report: Report) -> String {
        var root = JSONObjectWriter()
        root.string("bus", report.bus)
        let chips = report.findings.map { finding -> String in
            var w = JSONObjectWriter()
            w.string("address", hexByte(finding.address))
            w.string("chip", finding.chip.name)
            w.string("name", finding.chip.displayName)
            w.string("kind", finding.chip.kind.rawValue)
            return w.finished
        }
        root.raw("chips", "[" + chips.joined(separator: ",") + "]")
        root.raw("claimedByKernel", "[" + report.claimedByKernel.map { "\"\(hexByte($0))\"" }.joined(separator: ",") + "]")
        root.raw("cameras", "[" + report.cameras.map(JSONObjectWriter.quoted).joined(separator: ",") + "]")
        return root.finished
    }

    public static func text(_ report: Report) -> String {
        var out = "I2C bus \(report.bus):\n"
        if report.findings.isEmpty { out += "  no supported chip answered: check wiring, power and that I2C is enabled\n" }
        for finding in report.findings {
            out += "  \(hexByte(finding.address))  \(finding.chip.displayName) (\(finding.chip.kind.rawValue))\n"
        }
        for address in report.claimedByKernel {
            out += "  \(hexByte(address))  owned by a kernel driver: skipped (unbind it to use the chip here)\n"
        }
        for camera in report.cameras { out += "camera \(camera): captures by streaming\n" }
        if !report.findings.isEmpty || !report.cameras.isEmpty { out += "\nfor the board file:\n" + boardSnippet(report) + "\n" }
        return out
    }
}
