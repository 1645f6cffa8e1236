/// The failures a recording keeps, in bytes: a kind, then its fields (addresses as a byte,
/// errno and numbers as varints, paths and words as a counted UTF-8 text), so a replay fails
/// where and as the device failed, with the same words in HEALTH and DEVICES.
enum InputEventErrors {
    static func put(_ error: I2CError, into bytes: inout [UInt8]) {
        switch error {
        case .noAcknowledge(let address): bytes += [0, address]
        case .busError(let address): bytes += [1, address]
        case .timeout(let address): bytes += [2, address]
        case .busy(let address): bytes += [3, address]
        case .permissionDenied(let path): put(4, text: path, into: &bytes)
        case .noSuchBus(let path): put(5, text: path, into: &bytes)
        case .unsupported(let what): put(6, text: what, into: &bytes)
        case .system(let code, let address):
            bytes += [7, address]
            InputEventCodec.putVarint(UInt64(UInt32(bitPattern: code)), into: &bytes)
        }
    }

    static func put(_ error: SerialError, into bytes: inout [UInt8]) {
        switch error {
        case .notFound(let path): put(0, text: path, into: &bytes)
        case .permissionDenied(let path): put(1, text: path, into: &bytes)
        case .unsupportedBaudRate(let rate):
            bytes.append(2)
            InputEventCodec.putVarint(UInt64(clamping: max(0, rate)), into: &bytes)
        case .disconnected(let path): put(3, text: path, into: &bytes)
        case .system(let code, let path):
            put(4, text: path, into: &bytes)
            InputEventCodec.putVarint(UInt64(UInt32(bitPattern: code)), into: &bytes)
        }
    }

    private static func put(_ kind: UInt8, text: String, into bytes: inout [UInt8]) {
        bytes.append(kind)
        InputEventCodec.putVarint(UInt64(text.utf8.count), into: &bytes)
        bytes += text.utf8
    }

    static func i2c(_ reader: inout ByteReader) -> I2CError? {
        guard let kind = reader.byte() else { return nil }
        switch kind {
        case 0...3:
            guard let address = reader.byte() else { return nil }
            return [I2CError.noAcknowledge(address: address), .busError(address: address), .timeout(address: address), .busy(address: address)][
                Int(kind)]
        case 4: return reader.text().map { .permissionDenied(path: $0) }
        case 5: return reader.text().map { .noSuchBus(path: $0) }
        case 6: return reader.text().map { .unsupported($0) }
        case 7:
            guard let address = reader.byte(), let code = reader.varint(), code <= UInt64(UInt32.max) else { return nil }
            return .system(errno: Int32(bitPattern: UInt32(code)), address: address)
        default: return nil
        }
    }

    static func serial(_ reader: inout ByteReader) -> SerialError? {
        guard let kind = reader.byte() else { return nil }
        switch kind {
        case 0: return reader.text().map { .notFound(path: $0) }
        case 1: return reader.text().map { .permissionDenied(path: $0) }
        case 2:
            guard let rate = reader.varint(), rate <= UInt64(Int32.max) else { return nil }
            return .unsupportedBaudRate(Int(rate))
        case 3: return reader.text().map { .disconnected(path: $0) }
        case 4:
            guard let path = reader.text(), let code = reader.varint(), code <= UInt64(UInt32.max) else { return nil }
            return .system(errno: Int32(bitPattern: UInt32(code)), path: path)
        default: return nil
        }
    }
}
