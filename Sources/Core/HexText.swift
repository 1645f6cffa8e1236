/// Two hexadecimal digits of a byte ("0d", or "0D" in capitals as NMEA 0183 writes checksums).
public func hexDigits(_ value: UInt8, uppercase: Bool = false) -> String {
    let digits: [Character] = uppercase ? Array("0123456789ABCDEF") : Array("0123456789abcdef")
    return String(digits[Int(value >> 4)]) + String(digits[Int(value & 15)])
}

/// "0x0d": how datasheets and i2cdetect write addresses and register values.
public func hexByte(_ value: UInt8) -> String { "0x" + hexDigits(value) }

/// NMEA 0183's framing: `$` + body + `*` + the XOR of the body's bytes in two capital hex
/// digits. The simulated receiver and the NMEA output both write sentences through it.
public func nmeaSentence(_ body: String) -> String {
    var checksum: UInt8 = 0
    for byte in body.utf8 { checksum ^= byte }
    return "$" + body + "*" + hexDigits(checksum, uppercase: true)
}
