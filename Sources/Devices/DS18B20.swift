import LodestoneCore
import LodestoneHAL

/// Maxim (Analog Devices) DS18B20 1-Wire thermometer, as the Linux w1-therm driver shows it in
/// sysfs (see `OneWireDirectory` for the files). Parsing only: the text in, degrees Celsius
/// or a plain-English reason out. Nothing here traps on any text.
///
/// The 9-byte scratchpad (datasheet Figure 9): bytes 0-1 temperature (signed 16-bit, LSB first,
/// 1/16 °C at 12 bits), 2-3 alarm limits TH and TL, 4 configuration (0 R1 R0 1 1 1 1 1), 5 and
/// 7 reserved (0xFF, 0x10), 6 reserved, 8 the CRC of bytes 0-7.
public enum DS18B20 {
    /// The chip's measuring range: -55 °C to +125 °C.
    public static let range: ClosedRange<Double> = -55...125

    /// Why a probe's text is not a temperature.
    public enum ReadingError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The text is not what w1-therm writes (empty, not a number, lines missing).
        case malformed(String)
        /// The kernel's own CRC check said NO.
        case kernelRejected
        /// The CRC over scratchpad bytes 0-7 does not match byte 8.
        case crcMismatch(computed: UInt8, received: UInt8)
        /// +85 °C (scratchpad 0x0550): the temperature register's power-on value, which the
        /// probe returns when it reset (power lost during the conversion) before converting.
        case powerOnValue
        /// The probe did not answer: scratchpad all ones (nothing pulled the line low) or the
        /// -127 °C that drivers report for a missing probe.
        case disconnected
        /// The scratchpad read all zeros: the data line is held low.
        case dataLineLow
        /// A value outside -55...+125 °C.
        case outOfRange(celsius: Double)
        /// The scratchpad says one temperature, the kernel's t= another.
        case disagreement(scratchpad: Double, kernel: Double)

        public var description: String {
            switch self {
            case .malformed(let what):
                return "the probe's text is not a reading (\(what))"
            case .kernelRejected:
                return "the kernel's CRC check failed: the 1-Wire line is noisy or the probe is losing contact"
            case .crcMismatch(let computed, let received):
                return "CRC check failed (computed \(hexByte(computed)), probe sent \(hexByte(received))): the 1-Wire line is noisy or a wire is loose"
            case .powerOnValue:
                return "85.0 °C is the power-on value, not a reading: the probe reset during the conversion (check its power and the pull-up)"
            case .disconnected:
                return "the probe did not answer: check the data wire, the ground and the 4.7 kΩ pull-up"
            case .dataLineLow:
                return "the scratchpad read all zeros: the data line is held low (a short, or the probe wired the wrong way round)"
            case .outOfRange(let celsius):
                return "\(celsius) °C is outside the DS18B20's range of -55 to +125 °C"
            case .disagreement(let scratchpad, let kernel):
                return "the scratchpad says \(scratchpad) °C but the kernel reported \(kernel) °C"
            }
        }
    }

    /// The `temperature` attribute: a signed integer in millidegrees Celsius and a newline
    /// ("21375\n" is 21.375 °C).
    public static func parseTemperature(_ text: String) -> Result<Double, ReadingError> {
        let trimmed = text.trimmingWhitespace()
        guard let millidegrees = Int(trimmed) else {
            return .failure(.malformed(trimmed.isEmpty ? "empty" : "\"\(trimmed.prefix(20))\" is not a number"))
        }
        if millidegrees == 85_000 { return .failure(.powerOnValue) }
        if millidegrees == -127_000 { return .failure(.disconnected) }
        return checked(Double(millidegrees) / 1000)
    }

    /// The older `w1_slave` file: two lines, the scratchpad with the kernel's CRC verdict and
    /// the scratchpad again with the kernel's temperature in millidegrees:
    ///
    ///     72 01 4b 46 7f ff 0e 10 57 : crc=57 YES
    ///     72 01 4b 46 7f ff 0e 10 57 t=23125
    ///
    /// Accepted only when the kernel said YES, the CRC checks out here as well, and the
    /// scratchpad's temperature agrees with t=.
    public static func parseSlave(_ text: String) -> Result<Double, ReadingError> {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
        guard lines.count >= 2 else { return .failure(.malformed("expected two lines")) }
        let verdictLine = lines[0].split(separator: " ")
        let valueLine = lines[1].split(separator: " ")
        guard verdictLine.count >= 9, valueLine.count >= 10,
            let verdict = verdictLine.last, let value = valueLine.last, value.hasPrefix("t=")
        else {
            return .failure(.malformed("expected nine scratchpad bytes, the CRC verdict and t="))
        }
        var scratchpad: [UInt8] = []
        for token in verdictLine.prefix(9) {
            guard token.count == 2, let byte = UInt8(token, radix: 16) else {
                return .failure(.malformed("\"\(token.prefix(8))\" is not a scratchpad byte"))
            }
            scratchpad.append(byte)
        }
        guard valueLine.prefix(9).map({ UInt8($0, radix: 16) }) == scratchpad.map({ Optional($0) }) else {
            return .failure(.malformed("the two lines show different scratchpads"))
        }
        if scratchpad.allSatisfy({ $0 == 0xFF }) { return .failure(.disconnected) }
        guard verdict == "YES" else {
            return verdict == "NO" ? .failure(.kernelRejected) : .failure(.malformed("no YES or NO after the CRC"))
        }
        let computed = crc8(scratchpad.prefix(8))
        guard let received = scratchpad.last, computed == received else {
            return .failure(.crcMismatch(computed: computed, received: scratchpad.last ?? 0))
        }
        // All zeros passes the CRC (the CRC of zeros is zero); the configuration byte's low
        // five bits always read 1 on a real probe.
        guard scratchpad.count == 9, scratchpad[4] & 0x1F == 0x1F else {
            return .failure(scratchpad.allSatisfy { $0 == 0 } ? .dataLineLow : .malformed("the configuration byte is not 0xx11111"))
        }
        let raw = Int16(bitPattern: UInt16(scratchpad[0]) | UInt16(scratchpad[1]) << 8)
        if raw == 0x0550 { return .failure(.powerOnValue) }
        let celsius = Double(raw) / 16
        if celsius == -127 { return .failure(.disconnected) }
        if case .failure(let error) = checked(celsius) { return .failure(error) }
        guard let millidegrees = Int(value.dropFirst(2)) else {
            return .failure(.malformed("t= is not a number"))
        }
        // The kernel computes raw × 1000 / 16 in integers, truncating toward zero: within
        // one millidegree of the exact value.
        let kernel = Double(millidegrees) / 1000
        guard abs(kernel - celsius) < 0.001 else { return .failure(.disagreement(scratchpad: celsius, kernel: kernel)) }
        return .success(celsius)
    }

    /// Either file's text, as `OneWireDirectory.read(probe:)` returns it.
    public static func parse(_ text: OneWireProbeText) -> Result<Double, ReadingError> {
        switch text {
        case .temperature(let text): return parseTemperature(text)
        case .slave(let text): return parseSlave(text)
        }
    }

    /// The Dallas/Maxim 1-Wire CRC-8 (x^8 + x^5 + x^4 + 1, bits shifted in LSB first, so the
    /// reflected polynomial 0x8C; initial value 0), as in Maxim application note 27.
    public static func crc8(_ bytes: some Sequence<UInt8>) -> UInt8 {
        var crc: UInt8 = 0
        for byte in bytes {
            var data = byte
            for _ in 0..<8 {
                let feedback = (crc ^ data) & 1
                crc >>= 1
                if feedback != 0 { crc ^= 0x8C }
                data >>= 1
            }
        }
        return crc
    }

    static func checked(_ celsius: Double) -> Result<Double, ReadingError> {
        range.contains(celsius) ? .success(celsius) : .failure(.outOfRange(celsius: celsius))
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    fileprivate func trimmingWhitespace() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
