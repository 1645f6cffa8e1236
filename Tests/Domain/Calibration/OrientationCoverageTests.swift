import LodestoneCore
import LodestoneDomain
import Testing

@Suite struct OrientationCoverageTests {
    @Test func cellsAreSpreadEvenly() {
        let cells = OrientationCoverage.cells
        #expect(cells.count == OrientationCoverage.cellCount)
        for c in cells { #expect(abs(c.length - 1) < 1e-12) }
        // Every broad direction gets about a sixth of the cells.
        for direction in CoverageDirection.allCases {
            let n = OrientationCoverage.cellDirection.filter { $0 == direction }.count
            #expect((5...9).contains(n), "\(direction.rawValue): \(n) cells")
        }
        // Nearest-neighbour spacing is nearly uniform (equal-area cells).
        var spacings: [Double] = []
        for (i, a) in cells.enumerated() {
            spacings.append(cells.enumerated().filter { $0.offset != i }.map { ($0.element - a).length }.min() ?? 0)
        }
        #expect((spacings.max() ?? 0) / (spacings.min() ?? 1) < 1.4)
    }

    @Test func emptyCoverageMissesEverything() {
        let coverage = OrientationCoverage()
        #expect(coverage.coverage == 0)
        #expect(coverage.missingDirections == CoverageDirection.allCases)
    }

    @Test func coverageGrowsAsDirectionsAreAddedAndNamesWhatIsMissing() {
        var coverage = OrientationCoverage()
        var rng = SeededGenerator(seed: 5)
        var previous = 0.0
        var expectedMissing = Set(CoverageDirection.allCases)
        for direction in [CoverageDirection.plusZ, .plusX, .minusY, .minusX, .plusY, .minusZ] {
            // Readings scattered within about 20 degrees of the axis, at the field's magnitude.
            for _ in 0..<300 {
                let jitter = Vector3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)) * 0.25
                coverage.add(direction: (direction.axis + jitter) * 48)
            }
            expectedMissing.remove(direction)
            #expect(coverage.coverage > previous, "after \(direction.rawValue)")
            previous = coverage.coverage
            #expect(!coverage.isMissing(direction))
            #expect(Set(coverage.missingDirections) == expectedMissing, "after \(direction.rawValue)")
        }
        #expect(coverage.coverage > 0.5)
        #expect(coverage.missingDirections.isEmpty)
        #expect(coverage.samples == 1800)
        coverage.reset()
        #expect(coverage.coverage == 0 && coverage.samples == 0)
    }

    @Test func aCellNeedsMoreThanOneStrayReading() {
        var coverage = OrientationCoverage(minimumPerCell: 3)
        coverage.add(direction: Vector3(0, 0, 1))
        coverage.add(direction: Vector3(0, 0, 2))
        #expect(coverage.coveredCells == 0)
        coverage.add(direction: Vector3(0, 0, 0.5))
        #expect(coverage.coveredCells == 1)
        #expect(abs(coverage.coverage - 1.0 / Double(OrientationCoverage.cellCount)) < 1e-12)
    }

    @Test func zeroAndNonFiniteDirectionsAreIgnored() {
        var coverage = OrientationCoverage(minimumPerCell: 1)
        coverage.add(direction: .zero)
        coverage.add(direction: Vector3(.nan, 0, 1))
        coverage.add(direction: Vector3(.infinity, 0, 0))
        #expect(coverage.samples == 0 && coverage.coveredCells == 0)
    }

    @Test func adviceNamesTheAxis() {
        #expect(CoverageDirection.minusZ.advice == "turn the device face down")
        #expect(CoverageDirection.plusX.advice.contains("+x"))
        #expect(CoverageDirection.allCases.map(\.rawValue) == ["+x", "-x", "+y", "-y", "+z", "-z"])
    }
}
