import LodestoneCore
import Glibc
import LodestoneHAL
import LodestoneOutputs
import LodestoneRuntime
import LodestoneSettings
import LodestoneStorage
import LodestoneBench

/// `lodestone screenshot`: runs the simulated board for a few seconds with the display drawn
/// into memory, then writes the page as a PNG.
enum ScreenshotCommand {
    static let help = """
        Usage: lodestone screenshot --out FILE.png [--size WxH] [--page NAME] [options]

        Runs the simulated board for a few seconds (so the GPS has a fix and the filters have
        settled), draws one display page as the framebuffer display would on a screen of that
        size, and writes it to a PNG file. The picture is what a device with that panel shows.

        Options:
          --out FILE.png          where to write the picture (required)
          --size WxH              the screen in pixels (default 320x240): 128x64 and smaller use
                                  the small layout, 240x240 and 320x240 the medium one, 480x320
                                  and up the large one
          --page NAME             compass (default), position, level, barometer, sky, chart, track,
                                  departures, waves, health, connect
          --format rgb565|xrgb8888|mono
                                  the panel's pixel format (default rgb565); mono is one bit
          --theme day|night       colours (default day)
          --units SET             metric, imperial or nautical figures (default metric)
          --north true|magnetic  the main heading's north (default true)
          --language en|de        the words' language: English (default) or German
          --scenario NAME         simulated trip: walk (default), boat, still, drive
          --settle S              seconds to run before the picture (default 4, 1..60)
          --config FILE           configuration file (observer, time zone...)
          --data-dir DIR          show the timetable, favourites and marks kept there (read only)
          --layout-json FILE      also write the page's layout as JSON: {"page","width","height",
                                  "usedFraction","texts":[{"text","x","y","w","h","missingGlyphs",
                                  "clipped","key"}]} in pixels. clipped: the page shortened or cut
                                  the text to fit; key: the page's key figure, drawn largest;
                                  usedFraction: the share of a 20 x 12 grid of tiles over the
                                  panel that drawn text or drawings touch. What the layout tests
                                  check for text over text, text off the panel, missing glyphs,
                                  clipped text and unused panel
          --http ADDR             the web app's address for the connect page's QR code (default
                                  there 127.0.0.1 on a free port: a picture of the page, whose
                                  code pairs nothing once the screenshot ends)

        Examples:
          lodestone screenshot --page sky --size 480x320 --out sky.png
          lodestone screenshot --page compass --size 128x64 --format mono --out compass.png
        """

    static let spec = OptionSpec(
        valued: ["out", "size", "page", "format", "theme", "units", "language", "scenario", "settle", "config", "data-dir", "http", "north", "layout-json"],
        flags: [])

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: spec, command: "screenshot")
        guard let out = options.values["out"] else { throw UsageError(message: "screenshot needs --out FILE.png (see 'lodestone screenshot --help')") }
        do {
            try checkReplaceable(out)
        } catch {
            Log.error(error.description)
            return 1
        }
        let sizeText = options.values["size"] ?? "320x240"
        let parts = sizeText.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (32...4096).contains(parts[0]), (32...4096).contains(parts[1]) else {
            throw UsageError(message: "--size takes WIDTHxHEIGHT in pixels, 32 to 4096 each (e.g. 320x240), not '\(sizeText)'")
        }
        let formatName = options.values["format"] ?? "rgb565"
        guard let format = PixelFormat(rawValue: formatName) else {
            throw UsageError(message: "--format must be rgb565, xrgb8888 or mono, not '\(formatName)'")
        }
        var configuration = Configuration()
        if let file = options.values["config"] {
            do { try configuration.load(file: file) } catch {
                Log.error(error.description)
                return 1
            }
        }
        try RunCommand.apply(options, to: &configuration)
        if configuration.page == .connect && configuration.httpListen == nil, let port = Loopback.freePort() { configuration.httpListen = "127.0.0.1:\(port)" }
        configuration.duration = try options.number("settle", in: 1...60) ?? 4
        if let layout = options.values["layout-json"] {
            do { try checkReplaceable(layout) } catch {
                Log.error(error.description)
                return 1
            }
        }
        configuration.picture = Configuration.Picture(width: parts[0], height: parts[1], format: format, path: out, layoutPath: options.values["layout-json"])
        // A scratch socket and data directory: a screenshot leaves nothing behind and does not
        // disturb a running instance.
        let scratch = "/tmp/lodestone-screenshot-\(getpid())"
        configuration.socket = scratch + ".sock"
        // The person's timetable (through a link in the scratch one), favourites and marks
        // (copied: the stores are never read through a link) from their data directory, so the
        // departures and waves pages show their stops and ships.
        if let own = options.values["data-dir"], makeDirectories(scratch) {
            if fileExists(own + "/timetable") { _ = symlink(own + "/timetable", scratch + "/timetable") }
            for name in ["timetable-favourites.json", "timetable-marks.csv"] {
                if let bytes = try? readStoreBytes(own + "/" + name) { _ = writeFileAtomically(scratch + "/" + name, bytes) }
            }
        }
        configuration.dataDir = scratch
        configuration.realTimePriority = nil
        configuration.lockMemory = false
        defer { removeTree(scratch) }
        let status = Runner.run(configuration)
        if status == 0 { Log.info("wrote \(out): the \(configuration.page.rawValue) page at \(parts[0])x\(parts[1]) (\(format.rawValue))") }
        return status
    }

}
