import LodestoneEncoding

/// A configuration written back as a file's object: what `config example` shows and what a
/// recording keeps of the run it recorded.
extension Setting {
    /// A top-level key's value: the setting's, or the object of its members' values; nil
    /// when it is unset (an object whose first member is unset, such as the MQTT broker, is off).
    public static func value(of top: String, members: [Setting], in configuration: Configuration) -> JSONValue? {
        guard let first = members.first, first.current(configuration) != .null else { return nil }
        if members.count == 1, first.key == top { return first.current(configuration) }
        var object: [(String, JSONValue)] = []
        for setting in members where setting.current(configuration) != .null {
            let path = setting.key.dropFirst(top.count + 1).split(separator: ".").map(String.init)
            insert(setting.current(configuration), at: path[...], into: &object)
        }
        return .object(object)
    }

    private static func insert(_ value: JSONValue, at path: ArraySlice<String>, into object: inout [(String, JSONValue)]) {
        guard let first = path.first else { return }
        if path.count == 1 { object.append((first, value)); return }
        var inner: [(String, JSONValue)] = []
        if let index = object.firstIndex(where: { $0.0 == first }), case .object(let existing) = object[index].1 {
            inner = existing
            object.remove(at: index)
        }
        insert(value, at: path.dropFirst(), into: &inner)
        object.append((first, .object(inner)))
    }
}

extension Configuration {
    /// Every top-level key at its value, as a configuration file would hold it, leaving out
    /// unset ones and the keys in `leaving` (a recording leaves out the MQTT broker's
    /// credentials).
    public func fileObject(leaving: Set<String> = []) -> JSONValue {
        var object: [(String, JSONValue)] = []
        var written = Set<String>()
        for setting in Setting.all {
            let top = String(setting.key.split(separator: ".").first ?? "")
            guard !written.contains(top), !leaving.contains(top) else { continue }
            written.insert(top)
            let members = Setting.all.filter { $0.key == top || $0.key.hasPrefix(top + ".") }
            if let value = Setting.value(of: top, members: members, in: self) { object.append((top, value)) }
        }
        return .object(object)
    }
}
