import LodestoneCore
import LodestoneSettings
import LodestoneStorage

/// `lodestone photo`: take a photo on the running device, list the photos kept.
enum PhotoCommand {
    static let help = """
        Usage: lodestone photo take [--socket PATH] [--json]
               lodestone photo list [--data-dir DIR]

        take asks the running device for a photo from the board's camera ("camera": {"device":
        "/dev/video0"} in the board file; the simulated board has one): a JPEG in
        <data-dir>/photos named by its time, with an EXIF block of the time and, with a fix, the
        position, altitude and the compass's direction. Taken while a track records, it belongs
        to the track (track show lists it, its GPX links it). The same as ?PHOTO; on the socket, or
        a long press of a board button named "photo". The camera keeps streaming, so the shutter
        answers within a frame or two.

        Example:
          lodestone photo take
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["socket", "data-dir"], flags: ["json"]), command: "photo")
        switch options.positional.first {
        case "take":
            return LockCommand.exchange(
                "?PHOTO;", socket: options.values["socket"], json: options.flags.contains("json"),
                answer: [#""class":"PHOTO""#]
            ) { photo in
                let place = photo["lat"]?.numberValue.flatMap { lat in photo["lon"]?.numberValue.map { "at \(fixed(lat, 6)), \(fixed($0, 6))" } }
                return "photo \(photo["file"]?.stringValue ?? "?") (\(photo["width"]?.numberValue.map { fixed($0, 0) } ?? "?")x"
                    + "\(photo["height"]?.numberValue.map { fixed($0, 0) } ?? "?"), \(photo["bytes"]?.numberValue.map { fixed($0 / 1024, 0) } ?? "?") KiB) "
                    + (place ?? "without a fix") + (photo["track"]?.stringValue.map { ", with the track '\($0)'" } ?? "")
            }
        case "list":
            let store = PhotoStore(dataDirectory: options.values["data-dir"] ?? Configuration.defaultDataDirectory())
            let photos = store.list()
            if photos.isEmpty { writeOut("no photos in \(store.directory)\n") }
            for photo in photos { writeOut(store.path(photo) + "\n") }
            return 0
        case let other:
            throw other.map { UsageError.unknown("photo action", $0, among: ["take", "list"]) }
                ?? UsageError(message: "photo what? take or list (see 'lodestone photo --help')")
        }
    }
}
