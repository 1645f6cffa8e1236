import LodestoneCore
import LodestoneEncoding

/// The numbers of a recording's header, checked once where the recording is read, so that
/// `recording info`, `replay` and `verify --recording` never meet one they cannot use: a
/// header edited by hand or damaged on the card (`"startUTC": 1e19`) is the file's error,
/// named, and never an overflow deep in a date's arithmetic.
public enum RecordingHeader {
    /// When a recording may start: from 1970 to the last second a date is written for.
    public static let startRange = 0...CivilTime.writableSeconds.upperBound
    /// How far into the device's time a cut piece may be judged from (`recording cut --from`).
    public static let fromRange = 0.0...1e9

    /// The header record's JSON text, read and checked (what `RecordingFile.read` does with
    /// the first record); `file` names it in the error.
    public static func parse(_ bytes: [UInt8], file: String) throws(StorageError) -> JSONValue {
        guard let header = try? JSONValue.parse(String(decoding: bytes, as: UTF8.self)),
            header["format"]?.stringValue == RecordingFile.formatName
        else {
            throw StorageError("\(file) is not a Lodestone recording (make one with 'lodestone run --record FILE')")
        }
        try check(header, file: file)
        return header
    }

    /// Throws, naming the field and quoting it as written, when a number the readers use is
    /// not one (or not within its range).
    public static func check(_ header: JSONValue, file: String) throws(StorageError) {
        try number(header, "startUTC", in: startRange, file: file)
        try number(header, "from", in: fromRange, file: file)
        if let codec = header["codec"], codec.numberValue.flatMap({ Int(whole: $0, in: 0...255) }) == nil {
            throw StorageError("\(file): the header's codec \(codec.asWritten) is out of range")
        }
        if let lines = header["lines"] {
            guard let list = lines.arrayValue, list.allSatisfy({ $0.numberValue.flatMap { UInt8(whole: $0) } != nil }) else {
                throw StorageError("\(file): the header's lines \(lines.serialized) must be GPIO line numbers from 0 to 255")
            }
        }
        if let monotonic = header["startMonotonic"], monotonic.stringValue.flatMap({ UInt64($0) }) == nil {
            throw StorageError("\(file): the header's startMonotonic \(monotonic.asWritten) must be nanoseconds written as text")
        }
    }

    /// An optional number of the header within `range`.
    static func number(_ header: JSONValue, _ key: String, in range: ClosedRange<Double>, file: String) throws(StorageError) {
        guard let value = header[key] else { return }
        guard let figure = value.numberValue, figure.isFinite, range.contains(figure) else {
            throw StorageError(
                "\(file): the header's \(key) \(value.asWritten) is out of range (\(DecimalText.compact(range.lowerBound, 0)) "
                    + "to \(DecimalText.compact(range.upperBound, 0)))")
        }
    }
}
