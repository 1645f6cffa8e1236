import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import Testing
@testable import LodestoneEncoding

/// What the command line sends is what the socket reads: every kind of request, encoded and
/// parsed as a client's line, decodes to the request it was.
@Suite struct RequestEncodersTests {
    /// The line's one command: its name and argument.
    static func parsed(_ text: String) -> (name: String, argument: JSONValue?)? {
        guard case .command(let name, let argument)? = ClientRequest.parse(line: text).first,
            ClientRequest.parse(line: text).count == 1
        else { return nil }
        return (name, argument)
    }

    static func roundTrip<R: SocketRequest & Equatable>(_ requests: [R], _ decode: (JSONValue?) throws(RequestError) -> R) {
        for request in requests {
            guard let (name, argument) = parsed(request.text) else {
                Issue.record("not one request: \(request.text)")
                continue
            }
            #expect(name == R.requestName, "\(request.text)")
            do {
                #expect(try decode(argument) == request, "\(request.text)")
            } catch {
                Issue.record("\(request.text) was refused: \(error)")
            }
        }
    }

    @Test func everyRequestDecodesToItself() {
        Self.roundTrip([CalibrateRequest.start(nil), .start(.swing), .start(.figure8), .cancel], CalibrateRequest.decode)
        Self.roundTrip([LockRequest(bearing: nil), LockRequest(bearing: 235.5), LockRequest(bearing: 0)], LockRequest.decode)
        Self.roundTrip([LevelRequest.report, .zero, .clear], LevelRequest.decode)
        Self.roundTrip(
            [
                TrackRequest.report, .start(name: "Col de Balme \"west\"", tags: ["hike", "snow"], mode: .every(5)),
                .start(name: nil, tags: [], mode: .adaptive), .start(name: nil, tags: [], mode: nil), .pause, .resume, .stop
            ],
            TrackRequest.decode)
        Self.roundTrip(
            [
                WaypointRequest.report, .add(name: "Hut", latitude: 46.0, longitude: 7.25, elevation: 2100, symbol: "Lodge", notes: "water"),
                .add(name: "Here", latitude: nil, longitude: nil, elevation: nil, symbol: nil, notes: nil),
                .goto(name: "Hut"), .back, .nearest, .stop, .rename(name: "Waypoint 3", to: "Spring"), .delete(name: "Spring")
            ], WaypointRequest.decode)
        Self.roundTrip([BaroRequest.report, .qnh(1009.4), .altitude(-20)], BaroRequest.decode)
        Self.roundTrip(
            [
                LogRequest.report, .start(interval: 0, streams: ["pressure", "heading"], duration: 3600),
                .start(interval: 30, streams: LogRequest.defaultStreams, duration: nil), .stop
            ], LogRequest.decode)
        Self.roundTrip(
            [
                DeparturesRequest(), DeparturesRequest(stop: "Zürich Bürkliplatz", count: 5, remind: "T2", minutes: 12),
                DeparturesRequest(stop: "nearest", count: 4, at: 1_785_000_000), DeparturesRequest(day: "2026-12-24")
            ],
            DeparturesRequest.decode)
        Self.roundTrip(
            [WavesRequest(place: .stop("Zürich Bürkliplatz"), date: "2026-07-04"), WavesRequest(place: .spot(latitude: 47.34, longitude: 8.57, radius: 1200))],
            WavesRequest.decode)
        Self.roundTrip(
            [ReminderRequest.list, .add(trip: "T2", stop: "IW", minutes: 15), .add(trip: "T9", stop: nil, minutes: 10), .cancel(id: "3")],
            ReminderRequest.decode)
        Self.roundTrip([SnapshotRequest(name: nil, notes: nil), SnapshotRequest(name: "Col", notes: "wind\nfrom the west")], SnapshotRequest.decode)
        Self.roundTrip([
            AlertRuleChange(kind: .pressureLow, enabled: true, threshold: 990, hysteresis: 0.5, cooldown: 7200),
            AlertRuleChange(kind: .temperatureLow)
        ]) { json throws(RequestError) in
            guard let change = try AlertRuleChange.decodeRequest(json) else { throw RequestError("listed, not changed") }
            return change
        }
    }

    @Test func plainRequestsAndWatch() {
        #expect(PlainRequest.status.text == "?STATUS;" && PlainRequest.config.text == "?CONFIG;")
        var watch = WatchOptions()
        (watch.enabled, watch.json, watch.nmea, watch.rates) = (true, true, true, ["IMU": 0])
        #expect(watch.text == #"?WATCH={"enable":true,"json":true,"nmea":true,"rates":{"IMU":0}};"#)
        #expect(Self.parsed(watch.text)?.name == "WATCH")
    }
}
