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

    /// The benches from their tables (BenchTable, BenchKernels).
    static var bench: String { BenchCommand.help }
}
