import Glibc

/// This machine's host name as the kernel has it (nil when it cannot be read or is empty): the
/// MQTT device's default name, and a name the web app answers to.
public func machineHostName() -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? nil : name
}
