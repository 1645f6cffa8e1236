import LodestoneCore
import LodestoneEncoding
import LodestoneReports

/// What the device remembers between runs that is not a record: the display's theme and units
/// as last chosen with a key, the button or the flip (`<dataDir>/display.json`), and the last
/// place a GPS fix gave (`<dataDir>/last-position.json`), the sky's place when there is no fix
/// and none configured, and the zone a paired phone offered and the person took
/// (`<dataDir>/zone.json`), the device's zone while `timeZone` is not set. Small files written
/// atomically; a damaged one is ignored.
package struct DeviceMemoryFile {
    let directory: String

    package init(dataDirectory: String) { directory = dataDirectory }

    package struct DisplayChoice: Equatable {
        package var theme: Theme
        package var units: Units

        package init(theme: Theme, units: Units) {
            self.theme = theme
            self.units = units
        }
    }

    package func displayChoice() -> DisplayChoice? {
        guard let json = read("display.json"), let theme = json["theme"]?.stringValue.flatMap(Theme.init(rawValue:)),
            let units = json["units"]?.stringValue.flatMap(Units.init(rawValue:))
        else { return nil }
        return DisplayChoice(theme: theme, units: units)
    }

    package func save(_ choice: DisplayChoice) {
        var w = JSONObjectWriter()
        w.string("theme", choice.theme.rawValue)
        w.string("units", choice.units.rawValue)
        write("display.json", w.finished)
    }

    package struct LastPosition: Equatable {
        package var latitude: Double
        package var longitude: Double
        /// UTC of the fix.
        package var time: Double

        package init(latitude: Double, longitude: Double, time: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.time = time
        }
    }

    package func lastPosition() -> LastPosition? {
        guard let json = read("last-position.json"), let latitude = json["latitude"]?.numberValue, let longitude = json["longitude"]?.numberValue,
            abs(latitude) <= 90, abs(longitude) <= 180, let time = json["time"]?.numberValue, time.isFinite
        else { return nil }
        return LastPosition(latitude: latitude, longitude: longitude, time: time)
    }

    package func save(_ position: LastPosition) {
        var w = JSONObjectWriter()
        w.number("latitude", position.latitude, decimals: 6)
        w.number("longitude", position.longitude, decimals: 6)
        w.number("time", position.time, decimals: 0)
        write("last-position.json", w.finished)
    }

    /// The zone taken from a phone, if it is still one the system can read.
    package func timeZone() -> String? {
        guard let name = read("zone.json")?["timeZone"]?.stringValue, name.utf8.count <= 64, (try? TimeZoneRules(name)) != nil else { return nil }
        return name
    }

    package func saveTimeZone(_ name: String) {
        var w = JSONObjectWriter()
        w.string("timeZone", name)
        write("zone.json", w.finished)
    }

    private func read(_ name: String) -> JSONValue? {
        let path = directory + "/" + name
        guard let text = readStoreTextIfPresent(path, limit: 4096) else { return nil }
        return try? JSONValue.parse(text)
    }

    private func write(_ name: String, _ text: String) {
        writeFileAtomically(directory + "/" + name, Array((text + "\n").utf8))
    }

    package init(directory: String) {
        self.directory = directory
    }
}
