import LodestoneCore
import Testing
@testable import LodestoneEncoding

@Suite struct JSONTests {
    @Test func writesGPSDStyleObjects() {
        var w = JSONObjectWriter(class: "TPV")
        w.integer("mode", 3)
        w.number("lat", 47.376912345678, decimals: 9)
        w.number("alt", .nan)
        w.number("speed", 0.5)
        w.number("neg", -0.0001, decimals: 4)
        w.string("device", "a \"quoted\"\nname")
        #expect(w.finished == #"{"class":"TPV","mode":3,"lat":47.376912346,"speed":0.5,"neg":-0.0001,"device":"a \"quoted\"\nname"}"#)
    }

    @Test(arguments: [
        (0.0, 3, "0"), (1.25, 1, "1.3"), (-1.25, 1, "-1.3"), (1013.2500001, 2, "1013.25"), (0.05, 3, "0.05"),
        (-0.0004, 3, "0"), (123456789.123, 2, "123456789.12"),
        (1.5e13, 6, "15000000000000"), (1.25e13 + 0.5, 6, "12500000000000.5"), (Double.nan, 2, "null"),
        (Double.infinity, 1, "null")
    ])
    func formatsNumbers(value: Double, decimals: Int, expected: String) {
        #expect(JSONObjectWriter.format(value, decimals: decimals) == expected)
    }

    @Test func parsesValidJSON() throws {
        let value = try JSONValue.parse(#" {"enable": true, "json":false, "n": -1.5e2, "s": "a\u00e9\n", "list": [1, null, {}]} "#)
        #expect(value["enable"] == .bool(true))
        #expect(value["json"] == .bool(false))
        #expect(value["n"] == .number(-150))
        #expect(value["s"] == .string("a\u{e9}\n"))
        #expect(value["list"] == .array([.number(1), .null, .object([])]))
    }

    @Test(arguments: [
        "", "{", "{\"a\":}", "[1,]", "{\"a\" 1}", "tru", "\"unterminated", "{\"a\":1} x", "01x", "-",
        String(repeating: "[", count: 100), "{\"a\":\"\u{1}\"}", "nan", "1e999"
    ])
    func rejectsMalformedJSON(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test func reportsTheLineOfAnError() {
        do {
            _ = try JSONValue.parse("{\n\"a\": 1,\n\"b\": ?\n}")
            Issue.record("parsed invalid JSON")
        } catch {
            #expect(error.line == 3)
        }
    }
}

/// The one JSON writer: structure, escapes, storage kept and copied on write.
@Suite struct JSONBufferTests {
    @Test func writesNestedReportsWithCommasWhereTheyBelong() throws {
        var json = JSONBuffer(capacity: 8)
        json.beginReport("SKY")
        json.number("hdop", 0.9, decimals: 2)
        json.number("pdop", .nan)
        json.beginArray("satellites")
        for prn in 1...3 {
            json.beginObject()
            json.integer("PRN", prn)
            json.bool("used", prn != 2)
            json.endObject()
        }
        json.endArray()
        json.string("note", "a \"quoted\"\tword\u{1}")
        json.time("time", 1_782_028_801.25)
        json.localTime("local", 1_782_028_801.25, zone: try TimeZoneRules("-09:30"))
        json.endObject()
        #expect(
            json.text
                == #"{"class":"SKY","hdop":0.9,"satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false},{"PRN":3,"used":true}],"note":"a \"quoted\"\tword\u0001","time":"2026-06-21T08:00:01.250Z","local":"2026-06-20T22:30:01-09:30"}"#
        )
        let parsed = try JSONValue.parse(json.text)
        #expect(parsed["satellites"]?.arrayValue?.count == 3 && parsed["pdop"] == nil)
    }

    @Test func growsPastItsCapacityAndResetKeepsNothing() {
        var json = JSONBuffer(capacity: 4)
        json.beginObject()
        for index in 0..<40 { json.string("a", String(index)) }
        json.endObject()
        #expect(json.count > 64 && json.text.hasPrefix(#"{"a":"0","a":"1""#) && json.text.hasSuffix(#""a":"39"}"#))
        json.reset()
        json.beginObject()
        json.number("x", -0.004, decimals: 2)
        json.number("y", 1e300, decimals: 3)
        json.endObject()
        #expect(json.text == #"{"x":0,"y":9200000000000000000}"#)
    }
}
