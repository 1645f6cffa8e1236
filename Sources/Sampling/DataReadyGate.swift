import LodestoneCore
import LodestoneHAL

/// A chip's data-ready pin on a GPIO line: the sensor is read only when the pin has risen
/// since the last read, which saves the bus transaction of asking a chip that has nothing
/// new. If no edge comes for 100 ms (a loose wire, a chip re-initialised) it reads anyway,
/// so a bad pin costs punctuality, never the data.
struct DataReadyGate {
    let line: any DigitalInput
    private var lastRead: MonotonicNanoseconds = 0
    static var fallback: UInt64 { 100_000_000 }

    init(line: any DigitalInput) { self.line = line }

    mutating func shouldRead(at now: MonotonicNanoseconds) -> Bool {
        var rising = 0
        do { try line.takeEvents { if $0.rising { rising += 1 } } } catch { return true }
        guard rising > 0 || now &- lastRead >= Self.fallback else { return false }
        lastRead = now
        return true
    }

    /// A read made without asking the pin (while the chip was being brought up); edges that
    /// came with it are used up.
    mutating func noteRead(at now: MonotonicNanoseconds) {
        _ = try? line.takeEvents { _ in }
        lastRead = now
    }
}
