import LodestoneCore
import LodestoneEncoding
import LodestoneSim
import LodestoneBoard
import Testing
@testable import LodestoneVerify

/// The referee's wind rules on reports made here from the simulator's truth: on the boat the
/// true wind must be the world's and the apparent the hull's (a device that publishes the
/// hull's wind as the true one fails); ashore no ENV may carry an apparent wind.
@Suite struct WindTriangleChecksTests {
    /// ENVs every 10 s while the boat sails, from the truth, the true direction turned by `off`.
    static func envs(_ judge: TripJudge, trueFromDeck: Bool = false, off: Double = 0) -> [PublishedReport] {
        stride(from: 300.0, to: 900, by: 10).map { t in
            let world = judge.windTruth(from: t - 3, to: t), deck = judge.windTruth(from: t - 3, to: t, overTheDeck: true)
            let trueWind = trueFromDeck ? deck : world
            let json = JSONValue.object([
                ("class", .string("ENV")), ("time", .string(TimeZoneRules.utc.iso8601(judge.scenario.startUTC + t))),
                ("windSpeedTrue", .number(trueWind.mean)), ("windDirectionTrue", .number(Angle.heading((world.direction ?? 0) + off))),
                ("windSpeedApparent", .number(deck.mean)), ("windAngleApparent", .number(0))
            ])
            return PublishedReport(arrived: t, json: json)
        }
    }

    static func row(_ checks: [RefereeCheck], _ name: String) -> RefereeCheck? { checks.first { $0.name == name } }

    @Test func onTheBoatTheTrueWindIsTheWorldsAndTheApparentTheHulls() throws {
        let trip = try #require(RefereeTrip.named("boat"))
        #expect(trip.board.station.vane?.aboard == true, "the boat's station stands aboard")
        let blank = TripJudge(trip: trip, reports: [], speed: 120)
        let good = TripJudge(trip: trip, reports: Self.envs(blank), speed: 120).windTriangleChecks()
        #expect(good.count == 4 && good.allSatisfy { $0.passed }, "\(good.map(\.json))")
        // The hull's wind published as the true one: the boat's own 3 m/s is in it.
        let deck = TripJudge(trip: trip, reports: Self.envs(blank, trueFromDeck: true), speed: 120).windTriangleChecks()
        #expect(Self.row(deck, "true wind speed error p95")?.passed == false, "\(deck.map(\.json))")
        // A direction 20° off.
        let turned = TripJudge(trip: trip, reports: Self.envs(blank, off: 20), speed: 120).windTriangleChecks()
        #expect(Self.row(turned, "true wind direction error median")?.passed == false, "\(turned.map(\.json))")
        // Nothing published: each rule says it had no data, and fails.
        #expect(blank.windTriangleChecks().allSatisfy { !$0.passed })
    }

    @Test func ashoreNoApparentWind() throws {
        let trip = try #require(RefereeTrip.named("walk"))
        #expect(trip.board.station.vane?.aboard == false)
        let judge = TripJudge(trip: trip, reports: [], speed: 120)
        let withApparent = TripJudge(trip: trip, reports: Self.envs(judge), speed: 120).windTriangleChecks()
        #expect(withApparent.count == 1 && Self.row(withApparent, "apparent wind ashore")?.passed == false, "\(withApparent.map(\.json))")
        let trueOnly = Self.envs(judge).map { report -> PublishedReport in
            guard case .object(let members) = report.json else { return report }
            return PublishedReport(arrived: report.arrived, json: .object(members.filter { !$0.0.contains("Apparent") }))
        }
        #expect(TripJudge(trip: trip, reports: trueOnly, speed: 120).windTriangleChecks().allSatisfy { $0.passed })
    }
}
