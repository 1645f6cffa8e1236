import LodestoneDomain
enum Help {
    static let overview = """
    lodestone: a real-time sensor runtime for compass, GPS, barometer and sky on small Linux boards

    Usage: lodestone <command> [options]

    Commands:
      run       sample the sensors and publish heading, position, pressure (default: simulated board)
      watch     print the live report stream of a running instance, like gpspipe -w
      web       the web app's browsers: pair one (a one-time address), list them, forget one
      status    show a running instance's sensor health and scheduler table
      track     record tracks (start, pause, resume, stop) and list, show, export (GPX), edit, delete them
      waypoint  save places, list them by distance, navigate to one, export GPX
      baro      the barometer's reference (QNH or a known altitude), altitude and weather trend
      alert     weather and altitude alerts: list, set (on/off, threshold), history
      history   min, max, mean and a graph of pressure, altitude, temperature over 1h to 7d
      log       logging sessions (start, stop, status) and the stored ones (list, export CSV/JSON)
      snapshot  capture every current value at once; list, show, compare, export (JSON/CSV)
      export-all  everything the device keeps in one archive with a checked manifest (a backup)
      import-all  restore an export-all archive, checked first: --merge (default) or --replace
      forget-all  delete every stored record (privacy): forget-all --yes
      sky       sunrise, sunset, twilights, golden and blue hours and the next season for a place and date
      seasons   the next equinoxes and solstices and the current season's progress
      eclipses  the next solar and lunar eclipses, and when and how much of each is seen from a place
      timetable import a GTFS feed (zip or folder) to keep on the device, near a place if asked
      departures  the next departures from a stop of the imported timetable, offline
      waves     the day's ferry waves at a stop or a spot on the shore, the best sessions, how often
      wetsuit   what to wear in the water, from its temperature, the air's and the wind
      passes    satellite passes (the ISS by default) from a local TLE file, SGP4/SDP4
      screenshot  draw a display page of the simulated device to a PNG file
      lock      lock a bearing to follow (deviation and off-course alerts), or --off
      level     the bubble level, or --zero it on a reference surface
      calibrate fit the magnetometer's hard- and soft-iron correction (figure-8 calibration)
      probe     find the supported sensor chips on an I2C bus and print board-file lines for them
      nmea      NMEA 0183 in, gpsd JSON (TPV and SKY) out
      declination  magnetic declination, inclination and field at a place and date (WMM2025)
      config    the settings: every key and flag (keys), a file checked (check), a commented file (example)
      completion  bash completion of the commands and run's options
      verify    run simulated trips and judge what the device publishes against the world's truth
      bench     measure the scheduler, the rings and allocations, and print the figures
      help      show this text, or 'lodestone help <command>'

    Run 'lodestone <command> --help' for the options of a command.
    Exit status: 0 success, 1 runtime failure, 2 usage error.
    """

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
    Usage: lodestone bench [NAME] [--json] [--seconds S] [--trials N]

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

    One bench alone, by NAME (or --kernel NAME): attitude, nmea, tpv, sky, runtime,
    startup, clients, timetable (import a synthetic national feed of 10,000 stops and
    1,000,000 stop times, then time cold departures answers), web --updates N --clients C
    (the web server streaming N tenths of a second of ATT at 10 Hz and TPV, SKY and ENV at
    1 Hz to C browsers on a loopback port: what callgrind counts for web.instructionsPerClientSecond),
    tracks (one 30,000-point track listed, shown, plotted and exported by the command line:
    tracks.largeShowMs and the others).
    """
}
