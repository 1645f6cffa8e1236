import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// The position filter on a synthetic trail: a walk with turns, a rest, a drive through a
/// 30 s tunnel, realistic correlated receiver noise, 2% wild outliers and short dropouts.
@Suite struct PositionFilterTests {
    struct Sample { var time: Double; var east: Double; var north: Double; var motion: MotionState }

    /// The true path, one sample a second, in metres east and north of the start.
    static func trail() -> [Sample] {
        var samples: [Sample] = []
        var east = 0.0, north = 0.0, heading = 20.0, time = 0.0
        func go(_ seconds: Int, speed: Double, turn: Double, _ motion: MotionState) {
            for _ in 0..<seconds {
                heading += turn
                east += speed * sin(Angle.radians(heading))
                north += speed * cos(Angle.radians(heading))
                time += 1
                samples.append(Sample(time: time, east: east, north: north, motion: motion))
            }
        }
        go(600, speed: 1.4, turn: 0.1, .walking)
        go(300, speed: 1.4, turn: -0.3, .walking)
        go(180, speed: 0, turn: 0, .still)
        go(900, speed: 1.4, turn: 0.05, .walking)
        go(200, speed: 15, turn: 0.2, .vehicle)
        return samples
    }

    @Test func theFilteredTrackKeepsDistanceAndStaysNearThePath() {
        let truth = Self.trail()
        let metresPerDegree = 111_320.0, latitude0 = 47.0, longitude0 = 8.0
        let cosine = cos(Angle.radians(latitude0))
        var seed: UInt64 = 5
        func gaussian() -> Double {
            func uniform() -> Double {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return max(Double(seed >> 11) / Double(1 << 53), 1e-12)
            }
            return (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())
        }
        var filter = PositionFilter()
        var biasEast = 0.0, biasNorth = 0.0
        var outliers = 0, rejected = 0, outliersAccepted = 0
        var filtered: [(time: Double, east: Double, north: Double)] = []
        var tunnelReported = 0
        // The receiver states a 95% horizontal accuracy of 8 m (the noise below is 5.3 m at
        // 95%); the filter takes one sigma, half of it.
        let accuracy = 8.0
        for (index, sample) in truth.enumerated() {
            // Slowly wandering error (atmosphere, multipath: about 2 m per axis, correlated over
            // a minute) plus 0.8 m of white noise per axis, about 3 m horizontal in all.
            biasEast = 0.9835 * biasEast + 0.36 * gaussian()
            biasNorth = 0.9835 * biasNorth + 0.36 * gaussian()
            let inTunnel = (2000..<2030).contains(index)
            let dropout = index % 97 < 5 && index > 50
            if !inTunnel && !dropout {
                var e = sample.east + biasEast + 0.8 * gaussian(), n = sample.north + biasNorth + 0.8 * gaussian()
                if index % 50 == 17 {  // 2% wild fixes, 50..500 m off
                    outliers += 1
                    let jump = 50 + Double(index % 450)
                    e += jump * 0.8
                    n -= jump * 0.6
                }
                let accepted = filter.add(
                    latitude: latitude0 + n / metresPerDegree, longitude: longitude0 + e / (metresPerDegree * cosine),
                    accuracy: accuracy / 2, time: sample.time, motion: sample.motion)
                if !accepted { rejected += 1 }
                if accepted && index % 50 == 17 { outliersAccepted += 1 }
            }
            if let estimate = filter.estimate(at: sample.time) {
                if inTunnel && index >= 2010 { tunnelReported += 1 }
                filtered.append(
                    (
                        sample.time, (estimate.longitude - longitude0) * metresPerDegree * cosine,
                        (estimate.latitude - latitude0) * metresPerDegree
                    ))
            }
        }
        func length(_ points: [(Double, Double)]) -> Double {
            zip(points, points.dropFirst()).reduce(0) { sum, pair in
                sum + ((pair.1.0 - pair.0.0) * (pair.1.0 - pair.0.0) + (pair.1.1 - pair.0.1) * (pair.1.1 - pair.0.1)).squareRoot()
            }
        }
        let trueDistance = length(truth.map { ($0.east, $0.north) })
        let filteredDistance = length(filtered.map { ($0.east, $0.north) })
        let worst = filtered.map { Self.distance(fromPath: truth, east: $0.east, north: $0.north) }.max() ?? .infinity
        let error = abs(filteredDistance - trueDistance) / trueDistance
        print(
            "position filter: distance \(filteredDistance) m vs \(trueDistance) m (\(error * 100)%), farthest from the path \(worst) m, "
                + "outliers \(outliers), rejected \(rejected)")
        #expect(error < 0.02)
        #expect(outliersAccepted == 0, "every wild fix is rejected")
        #expect(rejected - outliers < truth.count / 100, "good fixes are kept")
        #expect(tunnelReported == 0, "nothing reported more than 10 s into the tunnel")
        #expect(worst < accuracy, "farthest point \(worst) m from the true path")
    }

    /// The distance from a point to the nearest segment of the true path.
    static func distance(fromPath path: [Sample], east: Double, north: Double) -> Double {
        var best = Double.infinity
        for (a, b) in zip(path, path.dropFirst()) {
            let dx = b.east - a.east, dy = b.north - a.north
            let squared = dx * dx + dy * dy
            let t = squared > 0 ? max(0, min(1, ((east - a.east) * dx + (north - a.north) * dy) / squared)) : 0
            let ex = a.east + t * dx - east, ey = a.north + t * dy - north
            best = min(best, (ex * ex + ey * ey).squareRoot())
        }
        return best
    }

    @Test func confidenceNeverRisesWithWorseInputs() {
        let good = FixQuality.assess(satellites: 10, hdop: 0.9, error: 3, age: 0.5, threeD: true, frozen: false)
        #expect(good.confidence > 80 && good.warnings.isEmpty)
        let few = FixQuality.assess(satellites: 4, hdop: 0.9, error: 3, age: 0.5, threeD: true, frozen: false)
        #expect(few.confidence < good.confidence && few.warnings == [.fewSatellites])
        let poor = FixQuality.assess(satellites: 4, hdop: 6, error: 30, age: 0.5, threeD: false, frozen: false)
        #expect(poor.confidence < few.confidence && poor.warnings.contains(.highDOP))
        #expect(FixQuality.assess(satellites: 10, hdop: 1, error: 3, age: 30, threeD: true, frozen: false).warnings == [.noFix])
        #expect(FixQuality.assess(satellites: 10, hdop: 1, error: 3, age: 1, threeD: true, frozen: true).warnings.contains(.frozen))
    }
}
