import LodestoneCore
import Testing
@testable import LodestoneStorage

@Suite struct MagnetometerCalibrationCSVTests {
    @Test func columnsAreFoundByNameInAnyOrder() throws {
        let text = """
            # recorded on the bench
            MZ, t ,my,mx,temperature
            3,0.00,2,1,25
            6,0.02,5,4,25

            9,0.04,8,7,25
            """
        let r = try MagnetometerCSV.parse(text)
        #expect(r.fields == [Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)])
        #expect(r.times == [0, 0.02, 0.04])
        #expect(r.specificForces == nil)
        #expect(r.badLines == 0)
    }

    @Test func accelerometerColumnsAreOptional() throws {
        let r = try MagnetometerCSV.parse("ax,ay,az,mx,my,mz\r\n0,0,-1,10,20,30\r\n0.1,0,-0.99,11,21,31\r\n")
        #expect(r.fields == [Vector3(10, 20, 30), Vector3(11, 21, 31)])
        #expect(r.specificForces == [Vector3(0, 0, -1), Vector3(0.1, 0, -0.99)])
        #expect(r.times == nil)
        #expect(throws: CSVFormatError.self) { try MagnetometerCSV.parse("mx,my,mz,ax\n1,2,3,4\n") }
    }

    @Test func badLinesAreCountedAndSkipped() throws {
        let text = """
            t,mx,my,mz
            0,1,2,3
            1,1,2
            2,x,2,3
            3,1,2,3,4
            4,nan,2,3
            5,1e400,2,3
            ,1,2,3
            8,4,5,6
            """
        let r = try MagnetometerCSV.parse(text)
        #expect(r.fields == [Vector3(1, 2, 3), Vector3(4, 5, 6)])
        #expect(r.badLines == 6)
        #expect(r.firstBadLines == [3, 4, 5, 6, 7])
    }

    @Test func headerProblemsAreReported() {
        #expect(throws: CSVFormatError(message: "no header line (expected t,mx,my,mz with optional ax,ay,az)")) {
            try MagnetometerCSV.parse("\n# nothing\n")
        }
        do {
            _ = try MagnetometerCSV.parse("t,mx,my\n1,2,3\n")
            Issue.record("a header without mz was accepted")
        } catch {
            #expect(error.message.contains("missing mz"))
        }
        #expect(throws: CSVFormatError.self) { try MagnetometerCSV.parse("mx,my,mz,mx\n1,2,3,4\n") }
    }
}
