import LodestoneCore
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
import LodestoneSettings

/// The settings a phone may change: every row of the settings table whose `reload` is
/// `live`, read and changed through the same table that reads a configuration file, put in
/// force the way a SIGHUP puts them (`LiveSettings`), and kept in the configuration file the
/// device runs with, so a reload or the next start reads what the page set.
enum WebSettings {
    /// The rows the page offers, in the table's order.
    static var live: [Setting] { Setting.all.filter { $0.reload == .live } }

    /// A value the page must not be shown (it would leave the device in a browser's memory).
    static func isSecret(_ setting: Setting) -> Bool { setting.key.hasSuffix(".password") }

    /// `GET /api/v1/settings`: each live setting with the value it runs with, its type, unit,
    /// range or choices, whether it may be unset, and its help; `file` names where a change is
    /// kept (absent: the device runs without one, and a change holds until it restarts).
    static func list(_ running: Configuration) -> String {
        var items: [String] = []
        for setting in live {
            var w = JSONObjectWriter()
            w.string("key", setting.key)
            w.string("type", setting.type.rawValue)
            if let unit = setting.unit { w.string("unit", unit) }
            if let min = setting.min { w.number("min", min, decimals: 6) }
            if let max = setting.max { w.number("max", max, decimals: 6) }
            if let choices = setting.choices { w.raw("choices", "[" + choices.map(JSONObjectWriter.quoted).joined(separator: ",") + "]") }
            w.bool("nullable", setting.nullable)
            if isSecret(setting) {
                w.bool("secret", true)
                w.bool("set", setting.current(running) != .null)
            } else {
                w.raw("value", setting.current(running).serialized)
            }
            w.string("expected", setting.expected)
            w.string("help", setting.help)
            items.append(w.finished)
        }
        var head = JSONObjectWriter()
        head.string("class", "SETTINGS")
        if let file = running.configurationFile { head.string("file", file) }
        return String(head.finished.dropLast()) + ",\"settings\":[" + items.joined(separator: ",") + "]}"
    }

    /// `POST /api/v1/settings {"key":..,"value":..}`: checked by the settings table as a
    /// configuration file's value is (400 for a body without them, 404 for a key that is not
    /// live, 422 for a value it refuses, with the table's sentence), written into the
    /// configuration file and read again as a SIGHUP reads it; without a file, put in force
    /// until the next start. Answers as `GET /api/v1/settings`, with `changed`.
    static func change<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, body: JSONValue?) -> HTTPResponse {
        guard let key = body?["key"]?.stringValue, let value = body?["value"] else {
            return WebWrites.failure("give the setting and its value: {\"key\":\"units\",\"value\":\"metric\"}", status: 400)
        }
        guard let setting = live.first(where: { $0.key == key }) else {
            let known = Setting.all.contains { $0.key == key }
            return WebWrites.failure(
                known
                    ? "\(key) takes effect only at the next start: change it in the configuration file (lodestone config check)"
                    : "no setting \(key) is changed live: GET /api/v1/settings lists them", status: 404)
        }
        var wanted = loop.running
        if let problem = setting.apply(value, to: &wanted) {
            return WebWrites.failure("\(problem.key) \(problem.text)", status: 422)
        }
        do { try wanted.validate() } catch { return WebWrites.failure(error.problem, status: 422) }
        let before = setting.current(loop.running), after = setting.current(wanted)
        if before != after {
            if let refusal = putInForce(setting, wanted, loop) { return refusal }
            Log.info("setting \(setting.key) changed from the web app")
        }
        return .json(String(list(loop.running).dropLast()) + ",\"changed\":" + JSONObjectWriter.quoted(key) + "}")
    }

    /// The change in force, and in the file when there is one; the answer when it could not be.
    private static func putInForce<Clock: MonotonicClock>(_ setting: Setting, _ wanted: Configuration, _ loop: OutputLoop<Clock>) -> HTTPResponse? {
        let value = setting.current(wanted)
        guard let file = loop.running.configurationFile, loop.reload != nil else {
            LiveSettings.putInForce(wanted, loop)
            guard setting.current(loop.running) == value else {
                return WebWrites.failure("\(setting.key) could not be put in force (the log says why); it stays as it was", status: 422)
            }
            return nil
        }
        let old: String
        do { old = try readTextFile(file) } catch { return WebWrites.failure("cannot read \(file): \(error.description)", status: 500) }
        let edited: String
        do { edited = try ConfigurationFileEdit.setting(setting.key, to: value, in: old) } catch {
            return WebWrites.failure("\(file): \(error.problem); the setting stays as it was", status: 500)
        }
        guard writeFileAtomically(file, Array(edited.utf8)) else {
            return WebWrites.failure("cannot write \(file): the setting stays as it was", status: 500)
        }
        // Read again exactly as a SIGHUP reads it: the file, with the command line over it.
        LiveSettings.reload(loop)
        guard setting.current(loop.running) == value else {
            // The command line sets it, or a part could not take it: the file goes back to what it said.
            writeFileAtomically(file, Array(old.utf8))
            LiveSettings.reload(loop)
            let flag = setting.flag.map { " (--\($0))" } ?? ""
            return WebWrites.failure(
                "\(setting.key) could not be put in force: the command line may set it\(flag), or the log says why; it stays as it was",
                status: 409)
        }
        return nil
    }
}
