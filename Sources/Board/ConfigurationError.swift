import LodestoneEncoding

/// A refused value as the file wrote it.
package func describe(_ value: JSONValue) -> String { value.asWritten }

/// A configuration problem: which file, which key and what is wrong.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    public var file: String?
    public var key: String?
    public var problem: String
    /// What kind of file it is: "configuration" or "board file".
    public var what: String

    public init(file: String?, key: String?, problem: String, what: String = "configuration") {
        self.file = file
        self.key = key
        self.problem = problem
        self.what = what
    }

    public var description: String {
        var where_ = file.map { "\(what) \($0)" } ?? "settings"
        if let key { where_ += ": '\(key)'" }
        return where_ + ": " + problem
    }
}
