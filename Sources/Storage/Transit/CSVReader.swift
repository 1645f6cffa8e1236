import LodestoneCore

/// The comma-separated files of a GTFS feed (RFC 4180): a header row naming the columns, then
/// one record per line; fields may be quoted (with "" for a quote inside, and line breaks
/// allowed inside quotes); a byte-order mark and CR LF endings are accepted. A malformed line
/// is refused with the file's name and the line's number.
struct CSVReader {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let file: String
    /// The column index of each header name.
    let columns: [String: Int]
    /// The records, each with the line it starts on.
    let rows: [(line: Int, fields: [String])]

    init(file: String, bytes: [UInt8]) throws(Failure) {
        self.file = file
        var records: [(Int, [String])] = []
        var fields: [String] = [], field: [UInt8] = []
        var quoted = false, fieldStarted = false, line = 1, recordLine = 1
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func endField() { fields.append(String(decoding: field, as: UTF8.self)); field.removeAll(keepingCapacity: true); fieldStarted = false }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
            fields.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count && bytes[index] == UInt8(ascii: "\"") { field.append(byte); index += 1 } else { quoted = false }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                guard !fieldStarted, field.isEmpty else {
                    throw Failure(description: "\(file) line \(line): a quote inside an unquoted field")
                }
                quoted = true
                fieldStarted = true
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "\n"):
                endRecord()
                line += 1
                recordLine = line
            default:
                field.append(byte)
                fieldStarted = true
            }
        }
        guard !quoted else { throw Failure(description: "\(file) line \(recordLine): a quoted field that never ends") }
        if !fields.isEmpty || !field.isEmpty { endRecord() }
        guard let header = records.first else { throw Failure(description: "\(file): empty, without even a header row") }
        var columns: [String: Int] = [:]
        for (index, name) in header.1.enumerated() { columns[String(Substring(name).trimmingSpaces())] = index }
        self.columns = columns
        rows = Array(records.dropFirst()).map { (line: $0.0, fields: $0.1) }
        for row in rows where row.fields.count != header.1.count {
            throw Failure(description: "\(file) line \(row.line): \(row.fields.count) fields where the header names \(header.1.count)")
        }
    }

    /// A row's value in the named column ("" when the file has no such column).
    func value(_ row: [String], _ column: String) -> String {
        guard let index = columns[column], index < row.count else { return "" }
        return row[index]
    }

    /// Refuses a file that lacks a column the specification requires.
    func require(_ names: [String]) throws(Failure) {
        for name in names where columns[name] == nil { throw Failure(description: "\(file): no '\(name)' column (required)") }
    }
}
