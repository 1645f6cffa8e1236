import LodestoneCore
import Testing

/// Mountings as rotation matrices: each of the 24 must be a proper rotation, parse back from
/// its own text, and undo with its inverse.
@Suite struct AxisMappingTests {
    let v = Vector3(1.5, -2.25, 3.125)

    @Test func thereAreExactly24Mountings() {
        let all = AxisMapping.allRotations
        #expect(all.count == 24)
        #expect(Set(all.map(\.description)).count == 24)
        for m in all { #expect(m.determinant == 1) }
    }

    @Test func everyMountingRoundTripsThroughTextAndInverse() throws {
        for m in AxisMapping.allRotations {
            #expect(try AxisMapping(parsing: m.description) == m)
            #expect(m.inverse.apply(m.apply(v)) == v)
            #expect(m.then(m.inverse) == .identity)
            #expect(abs(m.apply(v).length - v.length) < 1e-12)
        }
    }

    @Test func textNamesTheChipAxisForEachBoardAxis() throws {
        // Chip turned 90 degrees left: its x points along the board's y, its y backwards.
        let m = try AxisMapping(parsing: "-y, x, z")
        #expect(m.apply(Vector3(1, 0, 0)) == Vector3(0, 1, 0))
        #expect(m.apply(Vector3(0, 1, 0)) == Vector3(-1, 0, 0))
        #expect(m.apply(Vector3(0, 0, 1)) == Vector3(0, 0, 1))
        // Upside down about x.
        let flipped = try AxisMapping(parsing: "x,-y,-z")
        #expect(flipped.apply(v) == Vector3(v.x, -v.y, -v.z))
        #expect(AxisMapping.boardToBody == flipped)
    }

    @Test func compositionAppliesInOrder() throws {
        let a = try AxisMapping(parsing: "-y,x,z"), b = try AxisMapping(parsing: "z,y,-x")
        #expect(a.then(b).apply(v) == b.apply(a.apply(v)))
        #expect(b.then(a).apply(v) == a.apply(b.apply(v)))
    }

    @Test func refusesWhatNoMountingGives() {
        #expect(throws: AxisMapping.ParseError.mirrored("x,y,-z")) { try AxisMapping(parsing: "x,y,-z") }
        #expect(throws: AxisMapping.ParseError.repeatedAxis("x,-x,z")) { try AxisMapping(parsing: "x,-x,z") }
        #expect(throws: AxisMapping.ParseError.malformed("x,y")) { try AxisMapping(parsing: "x,y") }
        #expect(throws: AxisMapping.ParseError.malformed("x,y,w")) { try AxisMapping(parsing: "x,y,w") }
    }
}
