import Glibc
import LodestoneCore
import Testing

/// Every number the readers of outside input take (recordings, archives and backups, GPX,
/// the settings and board files, HTTP and socket requests, NMEA) becomes an integer through a
/// checked conversion (`Int(whole:)`, `Int(rounding:)`, `Int(exactly:)`, `Int(saturating:)`),
/// never `Int(someDouble)`, which traps on NaN, infinities and anything beyond the type's
/// range (a recording's `"startUTC": 1e19` was exit 132). This reads their source and fails on
/// a conversion of a floating-point value that is not checked, outside the list of reasons.
@Suite struct UncheckedConversionTests {
    /// The package's folder, found from this file.
    static var root: String {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }

    /// The folders (every file) and files of the readers of outside input.
    static let readers = [
        "Sources/Storage", "Sources/Storage/Archives", "Sources/Storage/Transit", "Sources/Runtime/Recording", "Sources/Settings",
        "Sources/Outputs/Socket", "Sources/Outputs/Web", "Sources/Devices/NMEA", "Sources/Reports", "Sources/HAL/InputEventCodec.swift"
    ]

    /// Conversions that stay, each with why it cannot trap: file name and the call's text.
    static let allowed: [String: String] = [
        "RequestDecoders.swift: Int($0)": "the departures' count was checked to lie in 1...20 by `number(_:in:)` just before",
        "WebApp.swift: Int(wait.rounded(.up))": "the pairing throttle's own back-off in seconds, from the device's clock, not a number of the request"
    ]

    static let integerTypes = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"]
    /// Labels of the conversions that cannot trap.
    static let checkedLabels = [
        "exactly", "whole", "rounding", "saturating", "truncatingIfNeeded", "clamping", "bitPattern", "ascii", "littleEndian", "bigEndian"
    ]
    /// What says an argument is floating point: a JSON number, a Double made or rounded, a
    /// decimal or exponent literal, the settings' number readers.
    static let floatingMarks = ["numberValue", "number(", "Double(", "Float(", ".rounded", "squareRoot", "floor(", "ceil(", "MB"]

    /// Each unchecked conversion of a floating-point value in `text`: the call's text.
    static func uncheckedConversions(in text: String) -> [String] {
        var found: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = line.firstRange(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            var rest = code
            while let open = rest.firstIndex(of: "(") {
                let before = rest[..<open]
                let name = String(before.reversed().prefix { $0.isLetter || $0.isNumber }.reversed())
                let preceding = before.dropLast(name.count).last
                rest = rest[rest.index(after: open)...]
                guard integerTypes.contains(name), preceding.map({ !$0.isLetter && !$0.isNumber && $0 != "." && $0 != "_" }) ?? true else { continue }
                // The argument, to its closing parenthesis.
                var depth = 1
                var end = rest.startIndex
                while end < rest.endIndex && depth > 0 {
                    if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
                    if depth > 0 { end = rest.index(after: end) }
                }
                let argument = rest[..<end]
                let label = argument.prefix { $0.isLetter || $0.isNumber }
                if checkedLabels.contains(String(label)), argument.dropFirst(label.count).first == ":" { continue }
                let floating =
                    floatingMarks.contains { argument.contains($0) } || hasDecimalLiteral(argument)
                    || (argument == "$0" && floatingMarks.contains { code.contains($0) })
                if floating { found.append("\(name)(\(argument))") }
            }
        }
        return found
    }

    /// Whether `text` holds a literal such as 1.5 or 1e9.
    static func hasDecimalLiteral(_ text: Substring) -> Bool {
        let characters = Array(text)
        for index in characters.indices.dropFirst().dropLast() where characters[index - 1].isNumber && characters[index + 1].isNumber {
            if characters[index] == "." || characters[index] == "e" || characters[index] == "E" { return true }
        }
        return false
    }

    @Test func theCheckFindsWhatItLooksFor() {
        #expect(Self.uncheckedConversions(in: "let t = Int64(unixTime.rounded(.down))") == ["Int64(unixTime.rounded(.down))"])
        #expect(Self.uncheckedConversions(in: "x = Int(header[\"n\"]?.numberValue ?? 0)").count == 1)
        #expect(Self.uncheckedConversions(in: "bytes = Int(min(max(maximumMB, 1), 100_000) * 1_000_000)").count == 1)
        #expect(Self.uncheckedConversions(in: "let n = json.number(\"count\").map { Int($0) }").count == 1)
        #expect(Self.uncheckedConversions(in: "let s = Int(2.5 * k)").count == 1)
        for fine in [
            "let n = Int(whole: value.numberValue ?? 0)", "Int(rounding: x.rounded())", "let port = UInt16(text)",
            "UInt32(bytes[0]) << 8", "Int(exactly: d)", "// Int(x.numberValue)", "let a = MyInt(2.5)", "Int64(saturating: 1e19)"
        ] {
            #expect(Self.uncheckedConversions(in: fine).isEmpty, "\(fine)")
        }
    }

    @Test func everyReaderConvertsNumbersCheckedOnly() throws {
        var files: [String] = []
        for place in Self.readers {
            if place.hasSuffix(".swift") {
                files.append(place)
            } else {
                files += directoryEntries(Self.root + "/" + place).filter { $0.hasSuffix(".swift") }.sorted().map { place + "/" + $0 }
            }
        }
        try #require(files.count > 40, "the readers were not found from \(Self.root)")
        var unchecked: [String] = []
        for file in files {
            let text = try readTextFile(Self.root + "/" + file, limit: 4 << 20)
            let name = String(file.split(separator: "/").last ?? "")
            for call in Self.uncheckedConversions(in: text) where Self.allowed["\(name): \(call)"] == nil {
                unchecked.append("\(file): \(call)")
            }
        }
        #expect(
            unchecked.isEmpty,
            "convert with Int(whole:), Int(rounding:) or Int(saturating:), or list the call in `allowed` with why it cannot trap:\n\(unchecked.joined(separator: "\n"))"
        )
    }
}
