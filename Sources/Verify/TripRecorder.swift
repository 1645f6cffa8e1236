import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneSim
import Synchronization
import LodestoneEncoding
import LodestoneRuntime

/// One line the device published, as a client read it, with the world time it arrived.
struct PublishedReport {
    var arrived: Double
    var json: JSONValue
    var reportClass: String { json["class"]?.stringValue ?? "" }
}

/// The referee's client: connects to the running device's socket as any program would, asks
/// for every report, asks for the device's health four times a second, records a track, and
/// ends the run when the trip's time is up.
///
/// On a trip's own clock it holds time at the next instant it acts on (`SimulationClock.hold`):
/// a client the host keeps off the CPU pauses the trip, so it never misses its questions, the
/// track's end or the trip's end, and reads each report within a quarter second of the world.
final class TripRecorder: RunObserver, @unchecked Sendable {
    let socketPath: String
    let duration: Double
    private let state = Mutex<(world: SimulatedWorld?, clock: (any MonotonicClock)?, stop: (@Sendable () -> Void)?)>((nil, nil, nil))
    private let thread = LoopThread()
    private let ended = Atomic<Bool>(false)
    private(set) var reports: [PublishedReport] = []
    private(set) var failure: String?

    init(socketPath: String, duration: Double) {
        self.socketPath = socketPath
        self.duration = duration
    }

    func simulationStarted(world: SimulatedWorld, clock: any MonotonicClock) {
        state.withLock {
            $0.world = world; $0.clock = clock
        }
    }

    func outputsStarted(stop: @escaping @Sendable () -> Void) {
        state.withLock { $0.stop = stop }
        _ = thread.start(name: "referee") { [self] in record() }
    }

    /// Waits for the recording to end (after the run has returned).
    func finish() {
        ended.store(true, ordering: .relaxed)
        thread.join()
    }

    private func record() {
        let (world, stop, clock) = state.withLock { ($0.world, $0.stop, $0.clock) }
        guard let world, let stop else { return }
        let holder = (clock as? SimulationClock)?.follower()
        defer { holder?.leave() }
        let client: ReportClient
        do { client = try ReportClient(path: socketPath) } catch {
            failure = error.description
            stop()
            return
        }
        client.send(#"?WATCH={"enable":true,"json":true};"#)
        client.send(#"?TRACK={"action":"start","interval":1};"#)
        var nextHealth = 0.0
        var trackStopped = false
        while !ended.load(ordering: .relaxed) {
            let now = world.elapsed
            if now >= duration {
                stop()
                break
            }
            if now >= nextHealth {
                nextHealth = now + 0.25
                client.send("?STATUS;")
            }
            if !trackStopped && now >= duration - 2 {
                trackStopped = true
                client.send(#"?TRACK={"action":"stop"};"#)
            }
            if let holder {
                // A microsecond past the instant, rounded up: held exactly at it, the world's
                // seconds could read a rounding short of it, and nothing would move on.
                let next = min(nextHealth, trackStopped ? duration : duration - 2)
                holder.hold(at: holder.now() &+ UInt64((max(0, next - now) / world.speed * 1e9).rounded(.up)) &+ 1_000)
            }
            guard let line = client.readLine(timeoutMilliseconds: 2) else { continue }
            guard let json = try? JSONValue.parse(line) else { continue }
            reports.append(PublishedReport(arrived: world.elapsed, json: json))
        }
        // What is still on the way.
        while !ended.load(ordering: .relaxed), let line = client.readLine(timeoutMilliseconds: 50) {
            if let json = try? JSONValue.parse(line) { reports.append(PublishedReport(arrived: world.elapsed, json: json)) }
        }
    }
}
