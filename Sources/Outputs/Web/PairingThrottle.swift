/// How often one address may try a pairing code. A code is ten characters of 32 (50 bits), but
/// nothing should let a client on the network try them as fast as it can send: after each
/// wrong code the address waits a second; after `attempts` wrong codes in a row, a minute.
/// A right code clears the address's record. The table is bounded: beyond `maximumAddresses`
/// the record of the address seen longest ago makes room.
package struct PairingThrottle {
    /// Wrong codes in a row before the long pause (`http.pairingAttempts`).
    package var attempts: Int
    package static let shortPause = 1.0
    package static let longPause = 60.0
    static let maximumAddresses = 1024

    private var records: [String: (failures: Int, until: Double, seen: Double)] = [:]

    package init(attempts: Int = 10) { self.attempts = max(1, attempts) }

    /// Seconds the address must still wait before it may try a code (0: it may now).
    package func wait(for address: String, now: Double) -> Double {
        guard let record = records[address] else { return 0 }
        return max(0, record.until - now)
    }

    /// A wrong code from `address`: its pause begins.
    package mutating func failed(_ address: String, now: Double) {
        if records[address] == nil, records.count >= Self.maximumAddresses,
            let oldest = records.min(by: { $0.value.seen < $1.value.seen })?.key
        {
            records[oldest] = nil
        }
        let failures = (records[address]?.failures ?? 0) + 1
        let pause = failures % attempts == 0 ? Self.longPause : Self.shortPause
        records[address] = (failures, now + pause, now)
    }

    /// A right code from `address`: its record goes.
    package mutating func succeeded(_ address: String) { records[address] = nil }
}
