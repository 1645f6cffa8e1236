import LodestoneCore

/// The wait for a chip's start-up after a soft reset, spread over the sampling loop's reads so
/// that the loop never stops for it (as the MS5611's conversions are waited for): `start()`
/// sends the reset and restarts this, then each read asks the chip's own ready bit and goes on
/// only once it says so. Polling the chip's own bit needs no clock in the driver and waits as
/// long as this chip needs, no more and no less. A chip still busy five
/// start-up times after the first busy poll (Bosch's BME280 API gives the NVM copy five polls
/// 2 ms apart before reporting "NVM copy failed"), or after 50 busy polls, is given up on: the
/// driver throws, and the runtime's back-off starts (resets) it again. Serves the BMP280/BME280
/// and BMP3 drivers.
struct StartUpPoll: Sendable {
    let startUpNanoseconds: UInt64
    private(set) var firstBusyPoll: MonotonicNanoseconds?
    private(set) var busyPolls = 0

    static var maximumPolls: Int { 50 }

    init(startUpNanoseconds: UInt64) { self.startUpNanoseconds = startUpNanoseconds }

    /// A reset has just been sent: the wait starts again.
    mutating func restart() {
        firstBusyPoll = nil
        busyPolls = 0
    }

    /// Counts a poll that found the chip still starting up at `time`; true when it is time to give up.
    mutating func givesUp(stillBusyAt time: MonotonicNanoseconds) -> Bool {
        let first = firstBusyPoll ?? time
        firstBusyPoll = first
        busyPolls += 1
        let waited = time >= first ? time - first : 0
        return waited >= 5 * startUpNanoseconds || busyPolls >= Self.maximumPolls
    }
}
