import Glibc
import LodestoneCore
import LodestoneDevices
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime

/// `lodestone nmea [FILE]`: NMEA 0183 text in, gpsd-style JSON out, one report per line: a
/// TPV per fix epoch and a SKY per satellite cycle. Lines that are not sentences are skipped.
enum NMEACommand {
    static let help = """
        Usage: lodestone nmea [FILE]

        Reads NMEA 0183 (from FILE, or standard input) and prints one gpsd-style JSON report per
        line: a TPV for each fix epoch (mode, time, lat, lon, altMSL, altHAE, geoidSep, speed,
        track, eph, epv) and a SKY for each complete satellite cycle. Sentences from every talker
        (GP, GN, GL, GA, GB, BD, GQ, GI) are read: GGA, RMC, GSA, GSV, VTG, GLL, ZDA, GNS, GST,
        and Garmin's PGRMZ altitude. Each burst is merged as gpsd merges it, so the fixes match
        what gpsd reports for the same receiver.
        Lines that are not valid sentences (bad checksum, truncated, binary) are counted and
        skipped, and so is a sentence with a field no receiver can report (a speed above
        515 m/s, an altitude outside -500 to 18,000 m, a course outside 0-360, a negative DOP):
        it is dropped whole. The counts go to standard error at the end.

        Example: lodestone nmea receiver.log | grep TPV
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: [], flags: []), command: "nmea")
        guard options.positional.count <= 1 else { throw UsageError(message: "give one file, or none to read standard input") }
        let fd: Int32
        if let path = options.positional.first {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                Log.error("cannot read \(path): \(String(cString: strerror(errno)))")
                return 1
            }
        } else {
            fd = 0
        }
        defer { if fd != 0 { close(fd) } }
        var converter = NMEAConverter()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var output = ""
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            chunk.withUnsafeBytes { converter.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) { output += $0 + "\n" } }
            if output.utf8.count > 1 << 16 {
                writeOut(output)
                output = ""
            }
        }
        converter.finish { output += $0 + "\n" }
        writeOut(output)
        let dropped = converter.parser.outOfLimits
        let impossible = converter.parser.lastOutOfLimits.map { ", \(dropped) dropped for an impossible field (the last: \($0.description))" } ?? ""
        Log.info(
            "\(converter.parser.accepted) sentences read, \(converter.parser.rejected) rejected, "
                + "\(converter.framer.garbled) garbled and \(converter.framer.overlong) overlong lines skipped" + impossible)
        return 0
    }
}

/// Bytes of NMEA in, gpsd reports out: the framer, the parser, and a SKY whenever a GSV cycle
/// completes. Shared by the command and its tests.
struct NMEAConverter: ~Copyable {
    var framer = NMEAFramer()
    var parser = NMEAParser()
    private var skyCycles = 0
    var device = "nmea"

    /// At the end of the input: the last cycle's fix.
    mutating func finish(_ emit: (String) -> Void) {
        if let fix = parser.flush() { emit(GPSDReports.tpv(PositionReport(fix: fix, device: device))) }
    }

    /// gpsfake's log format: a `# Delay-Cookie: C SECONDS` header says the byte C marks where
    /// the sentences were cut to be sent with pauses; it is no part of them.
    private var cookie: UInt8?
    private var lastByte: UInt8 = UInt8(ascii: "\n")

    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (String) -> Void) {
        noteCookie(bytes)
        defer { if let last = bytes.last { lastByte = last } }
        guard let cookie else { return frame(bytes, emit) }
        var kept = [UInt8]()
        kept.reserveCapacity(bytes.count)
        for byte in bytes where byte != cookie { kept.append(byte) }
        kept.withUnsafeBytes { frame($0, emit) }
    }

    /// Finds a delay-cookie header among comment lines (memchr finds '#' fast; most logs have none).
    private mutating func noteCookie(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count, let found = memchr(base + offset, Int32(UInt8(ascii: "#")), bytes.count - offset) {
            let at = base.distance(to: UnsafeRawPointer(found))
            offset = at + 1
            let before = at == 0 ? lastByte : bytes[at - 1]
            guard before == UInt8(ascii: "\n") || before == UInt8(ascii: "\r") else { continue }
            let line = bytes[at..<min(bytes.count, at + 40)].prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
            let text = String(decoding: line, as: UTF8.self)
            let prefix = "# Delay-Cookie:"
            guard text.hasPrefix(prefix) else { continue }
            cookie = text.dropFirst(prefix.count).utf8.first { $0 != UInt8(ascii: " ") }
        }
    }

    private mutating func frame(_ bytes: UnsafeRawBufferPointer, _ emit: (String) -> Void) {
        framer.feed(bytes) { sentence in
            if let fix = parser.parse(sentence, received: 0) { emit(GPSDReports.tpv(PositionReport(fix: fix, device: device))) }
            if parser.skyCycles != skyCycles {
                skyCycles = parser.skyCycles
                let view = parser.sky, fix = parser.fix
                emit(
                    GPSDReports.sky(
                        SatelliteReport(
                            satellites: (0..<view.count).map { view[$0] }, hdop: fix.hdop, pdop: fix.pdop,
                            vdop: fix.vdop, device: device)))
            }
        }
    }
}
