import LodestoneDomain
enum Help {
    /// The overview: what it is, then every command of the table with its one line.
    @MainActor static var overview: String {
        let width = commands.map(\.name.count).max() ?? 10
        let lines = (commands.map { ($0.name, $0.summary) } + [("help", "show this text, or 'lodestone help <command>'")])
            .map { "  " + $0.0 + String(repeating: " ", count: max(1, width + 2 - $0.0.count)) + $0.1 }
        return """
            lodestone: a real-time sensor runtime for compass, GPS, barometer and sky on small Linux boards

            Usage: lodestone <command> [options]

            Commands:

            """ + lines.joined(separator: "\n") + """


                Run 'lodestone <command> --help' for the options of a command.
                Exit status: 0 success, 1 runtime failure, 2 usage error.
                """
    }

    static let run = RunHelp.text

    static let watch = """
        Usage: lodestone watch [--socket PATH] [--count N]

        Connects to a running 'lodestone run', asks for the report stream and prints each JSON
        report on its own line.

        Options:
          --socket PATH   the instance's socket (default as for 'run')
          --count N       stop after N lines
        """

    static let status = """
        Usage: lodestone status [--socket PATH] [--json]

        Asks a running 'lodestone run' for its sensor health and scheduler statistics.

        Options:
          --socket PATH   the instance's socket (default as for 'run')
          --json          print the HEALTH report as JSON
        """

    static let probe = """
        Usage: lodestone probe [--bus N|PATH|sim] [--json]

        Looks for every supported chip at its possible addresses on an I2C bus and identifies it by
        its ID registers (reads only; nothing is written to a chip). Addresses a kernel driver has
        claimed are skipped and listed. Prints what a board file should say.

        Options:
          --bus N|PATH|sim   the bus: 1 means /dev/i2c-1 (default 1); sim probes the simulated board
          --json             machine-readable output: {"bus":..,"chips":[{"address","chip","name","kind"}],"claimedByKernel":[..]}

        If the bus cannot be opened the error says why and what to do: enable I2C
        (dtparam=i2c_arm=on on a Raspberry Pi), or install udev/99-lodestone.rules and join the
        lodestone group.

        Examples:
          lodestone probe                 # /dev/i2c-1
          lodestone probe --bus 3 --json
        """

    static let bench = """
        Usage: lodestone bench [NAME] [--json] [--seconds S] [--trials N] [--peers DIR]

        Measures, in one run: the scheduler's wake-up lateness at 1 kHz next to cyclictest's
        (rt-tests, when installed) at the same interval and policy; the ring's throughput between
        two pinned threads (best and median of N trials); heap allocations per tick of the
        whole sampling loop on the simulated board (0 expected); and machine instructions per
        attitude-filter update, counted by callgrind (valgrind, when installed) as the
        difference between runs of N and 2N updates. Build with -c release for device figures.

        Options:
          --json          machine-readable output
          --seconds S     length of each latency measurement (default 5)
          --trials N      ring throughput trials (default 7)
          --kernel attitude --updates N
                          run only N attitude updates (what the callgrind runs execute)
          --peers DIR     after the figures above, the same counts for established peers over
                          the same inputs: minmea's NMEA parser (DIR/minmea) over the bench's
                          sentences and the receiver logs, Fusion's AHRS update (DIR/fusion)
                          over the attitude readings, and, when gpsd-clients is installed,
                          gpsdecode -j against lodestone nmea as whole processes over one
                          file ("peers" in --json, with ours/peer ratios). The peers are
                          compiled from DIR with cc -O2 in a temporary folder, for comparison
                          only: they are never linked into Lodestone. Needs cc and valgrind.

        One bench alone, by NAME (or --kernel NAME): attitude, nmea, tpv, sky, runtime (the
        whole device's instructions per second of its time, per thread, in steady state),
        memory (its resident set with the memory locked and 4 clients: runtime.rssKB), startup,
        clients, timetable (import a synthetic national feed of 10,000 stops and
        1,000,000 stop times, then time cold departures answers), web --updates N --clients C
        (the web server streaming N tenths of a second of ATT at 10 Hz and TPV, SKY and ENV at
        1 Hz to C browsers on a loopback port: what callgrind counts for web.instructionsPerClientSecond),
        tracks (one 30,000-point track listed, shown, plotted and exported by the command line:
        tracks.largeShowMs and the others), record (five minutes of the simulated walk recorded
        and replayed: record.bytesPerHour on the card, record.replayTimesRealTime).
        """
}
