import LodestoneCore

/// The comma-separated files of a GTFS feed (RFC 4180), read as a stream: bytes are fed in
/// pieces as they come off the disk or out of the zip, and each record is handed on as soon as
/// it ends, so a file of millions of rows passes through the memory of one. A header row names
/// the columns; fields may be quoted (with "" for a quote inside, and line breaks allowed
/// inside quotes); a byte-order mark and CR LF endings are accepted. Strict where the
/// specification is: a header naming a column twice, a quote inside an unquoted field (`ab"c`),
/// text after a closing quote (`"ab"c`) and a row with another number of fields than the
/// header are refused with the file's name and the line's number, never read as a guess.
package struct CSVReader {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The header's names, each with its column.
    package struct Columns {
        package var index: [String: Int] = [:]

        /// A row's value in the named column ("" when the file has no such column).
        func value(_ fields: [String], _ name: String) -> String {
            guard let at = index[name], fields.indices.contains(at) else { return "" }
            return fields[at]
        }
    }

    /// One record, with the line it starts on and the header's names.
    package struct Row {
        package var line: Int
        package var fields: [String]
        package var columns: Columns

        /// The value in the named column ("" when the file has no such column).
        subscript(_ name: String) -> String { columns.value(fields, name) }
    }

    /// The longest record read: a row of a timetable is a few hundred bytes, so one that runs
    /// on is a damaged file, refused before it fills the memory.
    static let recordLimit = 1 << 20

    let file: String
    /// Columns the specification requires: a header without one of them is refused.
    let required: [String]
    /// The header's names, once it has been read.
    package private(set) var columns = Columns()
    private(set) var headerRead = false

    private enum Place { case fieldStart, unquoted, quoted, quoteInQuoted, afterQuote }
    private var place = Place.fieldStart
    private var fields: [String] = []
    private var field: [UInt8] = []
    private var recordBytes = 0
    private var line = 1, recordLine = 1
    /// The first bytes, held until it is clear whether they are a byte-order mark.
    private var opening: [UInt8]? = []
    private var headerCount = 0

    package init(file: String, required: [String] = []) { (self.file, self.required) = (file, required) }

    /// Reads the next piece of the file; `each` gets every record it completes (the header's
    /// excepted) and may throw to stop the reading.
    package mutating func feed(_ bytes: ArraySlice<UInt8>, each: (Row) throws(Failure) -> Void) throws(Failure) {
        var start = bytes.startIndex
        if var held = opening {
            while held.count < 3 && start < bytes.endIndex {
                held.append(bytes[start])
                start += 1
            }
            if held.count < 3 { opening = held; return }
            opening = nil
            if held != [0xEF, 0xBB, 0xBF] { try take(held[...], each: each) }
        }
        try take(bytes[start...], each: each)
    }

    /// The end of the file: the last record (when it has no line break after it) is handed
    /// on, and a file without a header or with a quote left open is refused.
    package mutating func finish(each: (Row) throws(Failure) -> Void) throws(Failure) {
        if let held = opening {
            opening = nil
            if held != [0xEF, 0xBB, 0xBF] { try take(held[...], each: each) }
        }
        guard place != .quoted else { throw Failure(description: "\(file) line \(recordLine): a quoted field that never ends") }
        if !fields.isEmpty || !field.isEmpty || place == .quoteInQuoted || place == .afterQuote { try endRecord(each) }
        guard headerRead else { throw Failure(description: "\(file): empty, without even a header row") }
    }

    private mutating func take(_ bytes: ArraySlice<UInt8>, each: (Row) throws(Failure) -> Void) throws(Failure) {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        for byte in bytes {
            recordBytes += 1
            guard recordBytes <= Self.recordLimit else {
                throw Failure(description: "\(file) line \(recordLine): a record longer than \(Self.recordLimit) bytes (a quote left open, or not a GTFS file)")
            }
            switch place {
            case .quoted:
                if byte == quote { place = .quoteInQuoted; continue }
                if byte == lf { line += 1 }
                field.append(byte)
            case .quoteInQuoted:
                switch byte {
                case quote: field.append(byte); place = .quoted
                case comma: endField()
                case lf: try endRecord(each)
                case cr: place = .afterQuote
                default: throw Failure(description: "\(file) line \(line): text after a closing quote")
                }
            case .afterQuote:
                switch byte {
                case comma: endField()
                case lf: try endRecord(each)
                case cr: continue
                default: throw Failure(description: "\(file) line \(line): text after a closing quote")
                }
            case .fieldStart, .unquoted:
                switch byte {
                case quote:
                    guard place == .fieldStart else { throw Failure(description: "\(file) line \(line): a quote inside an unquoted field") }
                    place = .quoted
                case comma: endField()
                case lf: try endRecord(each)
                case cr: continue
                default:
                    field.append(byte)
                    place = .unquoted
                }
            }
        }
    }

    private mutating func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
        place = .fieldStart
    }

    private mutating func endRecord(_ each: (Row) throws(Failure) -> Void) throws(Failure) {
        endField()
        defer {
            fields.removeAll(keepingCapacity: true)
            line += 1
            recordLine = line
            recordBytes = 0
        }
        if fields.count == 1 && fields[0].isEmpty { return }  // a blank line
        guard headerRead else {
            for (index, name) in fields.enumerated() {
                let column = String(Substring(name).trimmingSpaces())
                guard columns.index[column] == nil else { throw Failure(description: "\(file) line \(recordLine): the header names '\(column)' twice") }
                columns.index[column] = index
            }
            for name in required where columns.index[name] == nil { throw Failure(description: "\(file): no '\(name)' column (required)") }
            headerCount = fields.count
            headerRead = true
            return
        }
        guard fields.count == headerCount else {
            throw Failure(description: "\(file) line \(recordLine): \(fields.count) fields where the header names \(headerCount)")
        }
        try each(Row(line: recordLine, fields: fields, columns: columns))
    }

    /// A small file's header and rows, all at once (the tests' and the fuzzer's view; the
    /// import reads row by row).
    static func rows(file: String, bytes: [UInt8], required: [String] = []) throws(Failure) -> (columns: Columns, rows: [Row]) {
        var reader = CSVReader(file: file, required: required)
        var rows: [Row] = []
        try reader.feed(bytes[...]) { rows.append($0) }
        try reader.finish { rows.append($0) }
        return (reader.columns, rows)
    }
}
