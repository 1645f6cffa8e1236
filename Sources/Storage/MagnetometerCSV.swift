import LodestoneCore

/// Magnetometer readings recorded to a CSV file for an offline calibration.
public struct MagnetometerRecording: Sendable {
    /// Microtesla, sensor axes, one per usable line.
    public var fields: [Vector3] = []
    /// Accelerometer readings in g, one per usable line, when the file has ax, ay, az.
    public var specificForces: [Vector3]?
    /// Seconds, when the file has a t column.
    public var times: [Double]?
    /// Lines that could not be used (wrong number of columns, not a number).
    public var badLines = 0
    /// The first few bad line numbers (1-based, as an editor shows them), to look at.
    public var firstBadLines: [Int] = []
}

public struct CSVFormatError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}

/// Reads `t,mx,my,mz[,ax,ay,az]` CSV. Columns are found by their header names, in any order
/// and any letter case; other columns are ignored. Blank lines and lines starting with '#'
/// are skipped. A line that cannot be read is counted and skipped rather than ending the
/// whole file, since a long recording with one glitch is still worth fitting.
public enum MagnetometerCSV {
    public static let requiredColumns = ["mx", "my", "mz"]
    public static let accelerationColumns = ["ax", "ay", "az"]
    static let keptBadLines = 5

    public static func parse(_ text: String) throws(CSVFormatError) -> MagnetometerRecording {
        var recording = MagnetometerRecording()
        var columns: [String: Int]?
        var magnetic = [0, 0, 0], acceleration: [Int]?, time: Int?
        var width = 0
        var lineNumber = 0
        // "\r\n" is one Character in Swift, so Windows line ends are matched explicitly.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = trimmed(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { trimmed($0) }
            guard columns != nil else {
                let found = try header(cells, line: lineNumber)
                columns = found
                magnetic = requiredColumns.map { found[$0] ?? 0 }
                let present = accelerationColumns.filter { found[$0] != nil }
                if present.count == 3 {
                    acceleration = accelerationColumns.map { found[$0] ?? 0 }
                    recording.specificForces = []
                } else if !present.isEmpty {
                    throw CSVFormatError(
                        message: "line \(lineNumber): accelerometer columns need all of ax, ay, az (found only \(present.joined(separator: ", ")))")
                }
                time = found["t"]
                if time != nil { recording.times = [] }
                width = cells.count
                continue
            }
            guard cells.count == width,
                let field = vector(cells, magnetic)
            else {
                recording.badLine(lineNumber)
                continue
            }
            var force: Vector3?
            if let acceleration {
                guard let f = vector(cells, acceleration) else { recording.badLine(lineNumber); continue }
                force = f
            }
            var seconds: Double?
            if let time {
                guard let s = Double(cells[time]), s.isFinite else { recording.badLine(lineNumber); continue }
                seconds = s
            }
            recording.fields.append(field)
            if let force { recording.specificForces?.append(force) }
            if let seconds { recording.times?.append(seconds) }
        }
        guard columns != nil else { throw CSVFormatError(message: "no header line (expected t,mx,my,mz with optional ax,ay,az)") }
        return recording
    }

    static func header(_ cells: [String], line: Int) throws(CSVFormatError) -> [String: Int] {
        var found: [String: Int] = [:]
        for (index, cell) in cells.enumerated() {
            let name = unquoted(cell).lowercased()
            guard !name.isEmpty else { continue }
            if found[name] != nil { throw CSVFormatError(message: "line \(line): column '\(name)' appears twice") }
            found[name] = index
        }
        let missing = requiredColumns.filter { found[$0] == nil }
        guard missing.isEmpty else {
            throw CSVFormatError(
                message:
                    "line \(line): the header needs columns mx, my, mz (microtesla); missing \(missing.joined(separator: ", ")) in '\(cells.joined(separator: ","))'"
            )
        }
        return found
    }

    static func vector(_ cells: [String], _ indices: [Int]) -> Vector3? {
        guard indices.count == 3, indices.allSatisfy({ cells.indices.contains($0) }),
            let x = Double(cells[indices[0]]), let y = Double(cells[indices[1]]), let z = Double(cells[indices[2]]),
            x.isFinite, y.isFinite, z.isFinite
        else { return nil }
        return Vector3(x, y, z)
    }

    static func trimmed(_ s: Substring) -> String {
        var view = s[...]
        while let first = view.first, first == " " || first == "\t" || first == "\r" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" || last == "\r" { view = view.dropLast() }
        return String(view)
    }

    static func trimmed(_ s: String) -> String { trimmed(s[...]) }

    static func unquoted(_ s: String) -> String {
        s.count >= 2 && s.hasPrefix("\"") && s.hasSuffix("\"") ? String(s.dropFirst().dropLast()) : s
    }
}

extension MagnetometerRecording {
    mutating func badLine(_ number: Int) {
        badLines += 1
        if firstBadLines.count < MagnetometerCSV.keptBadLines { firstBadLines.append(number) }
    }
}
