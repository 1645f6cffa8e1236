import Glibc
import LodestoneCore
import Testing

/// Long work shows its progress on a terminal and says nothing of it to a pipe.
@Suite(.serialized) struct ProgressTests {
    @Test func aLineSaysHowFar() {
        #expect(
            TerminalProgress.line("importing stop_times.txt", done: 3 << 20, total: 12 << 20, unit: "MB")
                == "importing stop_times.txt: 25% (3 of 12 MB)")
        #expect(TerminalProgress.line("reading walk.gpx", done: 150, total: 100, unit: "lines") == "reading walk.gpx: 100% (150 of 100 lines)")
        #expect(TerminalProgress.line("restoring", done: 7, total: nil, unit: "") == "restoring: 7")
        #expect(TerminalProgress.line("x", done: 1, total: 0, unit: "stores") == "x: 1 stores")
    }

    /// A feed of two stops and one trip, and an empty data folder.
    func feed(_ base: String) throws -> (feed: String, data: String) {
        removeTree(base)
        let feed = base + "/feed", data = base + "/data"
        try #require(makeDirectories(feed))
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Lake boats,https://example.org,Europe/Zurich\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA1,Pier,47.37,8.54\nB1,Harbour,47.30,8.60\n",
            "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR,1,,4\n",
            "trips.txt": "route_id,service_id,trip_id\nR,D,T\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,A1,1\nT,08:30:00,08:30:00,B1,2\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20261231\n"
        ]
        for (name, text) in files { try #require(writeFileAtomically(feed + "/" + name, Array(text.utf8))) }
        return (feed, data)
    }

    @Test func theTimetableImportAndTheExportShowTheirProgressOnATerminalOnly() throws {
        guard fileExists("/usr/bin/script") else {
            Issue.record("no script(1) (util-linux) to give the command a terminal: progress on a terminal was not tried")
            return
        }
        let base = "/tmp/lodestone-progress-\(getpid())"
        defer { removeTree(base) }
        let (feed, data) = try feed(base)
        let end = EndToEndTests()
        let binary = EndToEndTests.executable
        // script(1) runs the command on a pseudo-terminal, as a person at a shell would.
        let (status, onTerminal) = end.finish(
            try end.spawnProgram("/usr/bin/script", ["-qec", "\(binary) timetable import \(feed) --data-dir \(data)", "/dev/null"]))
        #expect(status == 0, "\(onTerminal)")
        #expect(onTerminal.contains("importing agency.txt: 100%") && onTerminal.contains("\r\u{1B}[K"), "\(onTerminal)")
        #expect(onTerminal.contains("kept "), "the result follows: \(onTerminal)")
        let (_, exported) = end.finish(
            try end.spawnProgram("/usr/bin/script", ["-qec", "\(binary) export-all --data-dir \(data) --out \(base)/backup.tar", "/dev/null"]))
        #expect(exported.contains("exporting tracks: 0%") && exported.contains("wrote \(base)/backup.tar"), "\(exported)")
        let (_, restored) = end.finish(
            try end.spawnProgram("/usr/bin/script", ["-qec", "\(binary) import-all \(base)/backup.tar --data-dir \(base)/again", "/dev/null"]))
        #expect(restored.contains("restoring tracks: 0%"), "\(restored)")
        // To a pipe: the result alone.
        let (again, piped) = end.finish(try end.spawn(["timetable", "import", feed, "--data-dir", data]))
        #expect(again == 0 && !piped.contains("\u{1B}[K") && !piped.contains("importing"), "\(piped)")
    }
}
