import Glibc
import LodestoneBench
import LodestoneCore
import LodestoneOutputs
import Testing

/// The web server under load, in this process on a loopback port: twenty browsers streaming at
/// once each get every event; a browser that stops reading is dropped (its queue freed) while
/// the others go on, and a run of such browsers leaves the memory where it was.
@Suite(.serialized) struct WebLoadTests {
    @Test func twentyBrowsersEachGetEveryEvent() {
        let ticks = 300
        let least = WebClientBench.kernel(ticks: ticks, clients: 20)
        #expect(least >= ticks, "the slowest of 20 browsers had \(least) of \(ticks) ATT events (and the 1 Hz reports)")
    }

    @Test func aBrowserThatStopsReadingIsDroppedWithoutMemoryGrowth() throws {
        var settings = WebServer.Settings()
        (settings.outboxLimit, settings.stallSeconds) = (64 << 10, 1)
        let (server, port) = try #require(WebClientBench.loopbackServer(settings: settings))
        defer { server.shutdown() }
        server.answer = { _ in .events([.attitude, .position, .environment, .satellites]) }
        let reader = try #require(WebClientBench.Browsers(count: 1, port: port))
        defer { reader.close() }
        var tick = 0
        /// Publishes until the server has dropped `expected` browsers (or 20 s of trying).
        func publish(untilDropped expected: Int) {
            let clock = SystemMonotonicClock()
            let start = clock.now()
            while server.droppedSlowClients < expected && Double(clock.now() &- start) / 1e9 < 20 {
                for report in WebClientBench.reports(tick: tick) { server.publish(report) }
                tick += 1
                server.service()
                reader.drain()
                if tick % 50 == 0 { usleep(1_000) }
            }
        }
        func residentBytes() -> Int {
            guard let text = try? readTextFile("/proc/self/statm", limit: 4096) else { return 0 }
            let fields = text.split(separator: " ")
            return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
        }
        // The first stalled browser, then the memory after it went; then ten more.
        var stalled = try #require(WebClientBench.Browsers(count: 1, port: port))
        for _ in 0..<50 where server.streamCount < 2 { server.service(); usleep(2_000) }
        publish(untilDropped: 1)
        #expect(server.droppedSlowClients == 1 && server.streamCount == 1, "dropped \(server.droppedSlowClients), streams \(server.streamCount)")
        stalled.close()
        let before = residentBytes()
        for round in 2...11 {
            stalled = try #require(WebClientBench.Browsers(count: 1, port: port))
            for _ in 0..<50 where server.streamCount < 2 { server.service(); usleep(2_000) }
            publish(untilDropped: round)
            stalled.close()
        }
        let after = residentBytes()
        #expect(server.droppedSlowClients == 11 && server.streamCount == 1, "dropped \(server.droppedSlowClients), streams \(server.streamCount)")
        // Ten browsers that each let 64 KB and more wait: the memory stays within 4 MB of where it was.
        #expect(after - before < 4 << 20, "resident memory grew by \(after - before) bytes over ten stalled browsers")
        // The reading browser had every ATT all along.
        #expect((reader.drain().first ?? 0) >= tick, "the reader had \(reader.drain().first ?? 0) of \(tick)")
    }
}
