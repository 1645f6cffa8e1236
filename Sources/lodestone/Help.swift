enum Help {
    static let overview = """
    lodestone: a real-time sensor runtime for compass, GPS, barometer and sky on small Linux boards

    Usage: lodestone <command> [options]

    Commands:
      run       sample the sensors and publish heading, position, pressure (default: simulated board)
      watch     print the live report stream of a running instance, like gpspipe -w
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
      passes    satellite passes (the ISS by default) from a local TLE file, SGP4/SDP4
      screenshot  draw a display page of the simulated device to a PNG file
      lock      lock a bearing to follow (deviation and off-course alerts), or --off
      level     the bubble level, or --zero it on a reference surface
      calibrate fit the magnetometer's hard- and soft-iron correction (figure-8 calibration)
      probe     find the supported sensor chips on an I2C bus and print board-file lines for them
      nmea      NMEA 0183 in, gpsd JSON (TPV and SKY) out
      declination  magnetic declination, inclination and field at a place and date (WMM2025)
      verify    run simulated trips and judge what the device publishes against the world's truth
      bench     measure the scheduler, the rings and allocations, and print the figures
      help      show this text, or 'lodestone help <command>'

    Run 'lodestone <command> --help' for the options of a command.
    Exit status: 0 success, 1 runtime failure, 2 usage error.
    """

    static let run = """
    Usage: lodestone run [options]

    Samples the IMU, magnetometer, barometer and GPS on a fixed-rate loop and publishes the
    results on a local socket (gpsd JSON), the terminal or a framebuffer display. Without a
    board it runs the simulated board, so it works on any Linux machine.

    Options:
      --board sim|FILE        the board: 'sim' (default) or a board file (see boards/;
                              'lodestone probe' prints the lines for the chips it finds)
      --scenario NAME         simulated trip: walk (default), boat, still, drive
      --use handheld|boat     where the compass is read (default: boat on the simulated boat,
                              else handheld); a boat's compass calibrates from swings, and is
                              judged within 15 degrees of heel instead of 30 of tilt
      --speed X               simulated world time per real second (default 1); the device
                              lives on the trip's clock, so its results do not depend on it
      --seed N                seed of the simulated sensor noise (default 1)
      --fault LIST            faults for the simulated trip, KIND@SECONDS[+DURATION] separated
                              by commas: magnet (15 s), silent-mag, silent-imu, silent-baro (5 s),
                              bus-errors (3 s), bus-hang (5 s), gps-outage, gps-silence, gps-garbage, disk-full
                              (30 s; every write under the data directory fails with ENOSPC);
                              e.g. magnet@120,gps-outage@300
      --duration S            stop after S real seconds (default: run until SIGINT/SIGTERM)
      --socket PATH           Unix socket for clients (default $XDG_RUNTIME_DIR/lodestone.sock,
                              /run/lodestone/lodestone.sock as root)
      --display MODE          terminal, none, fb:/dev/fbN, or fb:FILE (a file framebuffer with a
                              FILE.ppm screenshot); default: the board file's, else terminal
                              when stdout is one
      --page NAME             the display's first page: compass (default), position, level,
                              barometer, sky, chart, track, departures, health
      --units SET             metric, imperial or nautical (knots, nautical miles, hPa) on the
                              display (default metric; nautical with --use boat or the boat scenario)
      --theme day|night       the display's colours; night is red on black (default day)
      --listen ADDR           also serve gpsd JSON on TCP, e.g. 127.0.0.1:2947 (off by default;
                              a bare port means 127.0.0.1; other hosts must be written out)
      --nmea-listen ADDR      serve NMEA 0183 (HDM, HDG, HDT, ROT, XDR, MDA, RMC, GGA) on TCP,
                              e.g. 127.0.0.1:10110 for chart plotters (off by default)
      --nmea-udp ADDR         also send NMEA 0183 as UDP datagrams, e.g. 192.168.1.255:10110
                              (broadcast to the boat's network; a host alone means port 10110)
      --signalk-listen ADDR   serve Signal K deltas on TCP, one per line, for signalk-server's
                              "Signal K over TCP" connection, e.g. 127.0.0.1:8375 (off by default)
      --mqtt HOST:PORT        publish to an MQTT broker (Home Assistant discovery, a fleet's
                              broker; the rest of the settings in the configuration's "mqtt")
      --signalk-udp ADDR      send Signal K deltas as UDP datagrams, one each, for its "Signal K
                              over UDP" connection, e.g. 192.168.1.20:8375 (the port is needed)
      --data-dir DIR          where calibration, tracks and logs live
                              (default ~/.local/share/lodestone, /var/lib/lodestone as root);
                              one run owns it at a time (a second is refused), and what it
                              keeps is private to its owner (folders 0700, files 0600)
      --config FILE           configuration file (default /etc/lodestone/lodestone.json if present)
      --loop-rate HZ          scheduler loop rate (default 200)
      --imu-rate HZ           IMU sampling rate (default 100)
      --mag-rate HZ           magnetometer sampling rate (default 50)
      --baro-rate HZ          barometer sampling rate (default 25)
      --gps-rate HZ           simulated GPS fix rate, 1..10 (default 1)
      --qnh HPA               sea-level pressure for barometric altitude (default 1013.25)
      --priority N|none       SCHED_FIFO priority of the sampling thread (default 50)
      --cpu N                 pin the sampling thread to CPU N
      --no-mlock              do not lock memory
      --no-adaptive           keep the configured rates (no adaptive sampling)
      --low-power             run the low-power profile whatever the battery says
      --stats                 print the scheduler's per-task table when stopping

    Keys on the terminal display: 1-9 pick a page, tab, space, n or the right arrow the next,
    p or the left arrow the previous; t day/night theme; u metric, imperial, nautical; q quit. A board's
    page button steps through the pages and a long press on it toggles the theme, as does the
    flip gesture (face down and back).

    Examples:
      lodestone run --duration 60 --scenario boat --speed 10 --stats
      lodestone run --board boards/raspberry-pi-4.json
      lodestone run --board boards/sim-turned.json --display fb:/tmp/screen.raw
    """

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
    1,000,000 stop times, then time cold departures answers).
    """
}
