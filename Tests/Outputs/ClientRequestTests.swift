import LodestoneOutputs
import LodestoneReports
import Testing
@testable import LodestoneEncoding

@Suite struct ClientRequestTests {
    @Test func parsesGPSDCommands() {
        #expect(ClientRequest.parse(line: "?POLL;") == [.command("POLL", nil)])
        #expect(ClientRequest.parse(line: "?DEVICES;?version;") == [.command("DEVICES", nil), .command("VERSION", nil)])
        let watch = ClientRequest.parse(line: #"?WATCH={"enable":true,"json":true};"#)
        #expect(watch == [.command("WATCH", .object([("enable", .bool(true)), ("json", .bool(true))]))])
        #expect(ClientRequest.parse(line: "?WATCH;") == [.command("WATCH", nil)])
        #expect(ClientRequest.parse(line: "?STATUS;\r") == [.command("STATUS", nil)])
    }

    @Test func answersNonsenseWithAnErrorNotACrash() {
        for line in [
            "hello", "?", "?WATCH={\"enable\":", "?WATCH={nope};", "\u{0}\u{1}\u{2}", "?WATCH=[1];",
            String(repeating: "?", count: 5000)
        ] {
            let requests = ClientRequest.parse(line: line)
            #expect(
                requests.contains {
                    if case .invalid = $0 { return true }; return false
                },
                "\(line.prefix(20)) gave \(requests.prefix(3))")
            #expect(!requests.contains(.command("POLL", nil)))
        }
    }

    /// The table answers the requests it knows, says so for the others, and turns a decoder's
    /// refusal into an ERROR without calling the handler.
    @Test func theRequestTableDecodesBeforeItHandles() {
        var table = RequestTable()
        var handled: [LockRequest] = []
        table.route("LOCK", decode: LockRequest.decode) { request in
            handled.append(request)
            return []
        }
        #expect(table.answer("FOO", nil) == nil)
        #expect(table.answer("LOCK", .object([("bearing", .number(90))]))?.isEmpty == true)
        let refused = table.answer("LOCK", .object([("bearing", .number(400))]))
        guard case .error(let message)? = refused?.first else {
            Issue.record("a bearing of 400 was not refused: \(String(describing: refused))")
            return
        }
        #expect(message.contains("0 to 360"))
        #expect(handled == [LockRequest(bearing: 90)])
    }

    /// Every decoder range-checks its fields: what a handler could not use is refused with a
    /// message that says what is allowed.
    @Test(arguments: [
        ("TRACK", #"{"action":"start","interval":0}"#, "1..30 seconds"),
        ("TRACK", #"{"action":"jump"}"#, "start, pause, resume or stop"),
        ("TRACK", #"{"action":"start","tags":"alps"}"#, "list of at most 50"),
        ("WAYPOINT", #"{"action":"add","name":"x","lat":91,"lon":0}"#, "lat must be a number from -90"),
        ("WAYPOINT", #"{"action":"add","name":"x","lat":0,"lon":-181}"#, "lon must be a number from -180"),
        ("WAYPOINT", #"{"action":"add","position":"47.5, 190"}"#, "position must be a place"),
        ("WAYPOINT", #"{"action":"rename","name":"Hut"}"#, "rename needs"),
        ("BARO", #"{"qnh":1200}"#, "850 to 1100"),
        ("BARO", #"{"altitude":"high"}"#, "-500 to 9000"),
        ("ALERT", #"{"name":"pressureLow","threshold":5000}"#, "threshold for pressureLow"),
        ("ALERT", #"{"name":"nothing"}"#, "name must be one of"),
        ("LOG", #"{"action":"start","interval":0.5}"#, "1 to 3600"),
        ("LOG", #"{"action":"start","streams":["wind"]}"#, "'wind' is not one of"),
        ("LOG", #"{"action":"start","duration":-1}"#, "more than 0"),
        ("SNAPSHOT", #"{"name":42}"#, "text of at most 1000"),
        ("CALIBRATE", #"{"mode":"circle"}"#, "figure8"),
        ("LEVEL", #"{"zero":"yes"}"#, "true or false")
    ])
    func decodersRefuseWhatTheHandlersCannotUse(name: String, json: String, said: String) throws {
        let argument = try JSONValue.parse(json)
        var message: String?
        do {
            switch name {
            case "TRACK": _ = try TrackRequest.decode(argument)
            case "WAYPOINT": _ = try WaypointRequest.decode(argument)
            case "BARO": _ = try BaroRequest.decode(argument)
            case "ALERT": _ = try AlertRuleChange.decodeRequest(argument)
            case "LOG": _ = try LogRequest.decode(argument)
            case "SNAPSHOT": _ = try SnapshotRequest.decode(argument)
            case "CALIBRATE": _ = try CalibrateRequest.decode(argument)
            default: _ = try LevelRequest.decode(argument)
            }
        } catch {
            message = error.message
        }
        #expect(message?.contains(said) == true, "?\(name)=\(json) gave \(message ?? "no error")")
    }

    @Test func decodersKeepWhatIsGiven() throws {
        #expect(
            try TrackRequest.decode(JSONValue.parse(#"{"action":"start","name":"Ridge","tags":["Hike"],"interval":"adaptive"}"#))
                == .start(name: "Ridge", tags: ["Hike"], mode: .adaptive))
        #expect(
            try WaypointRequest.decode(JSONValue.parse(#"{"action":"add","name":"Hut","lat":46.5,"lon":7.9}"#))
                == .add(name: "Hut", latitude: 46.5, longitude: 7.9, elevation: nil, symbol: nil, notes: nil))
        #expect(
            try LogRequest.decode(JSONValue.parse(#"{"action":"start","interval":"every"}"#))
                == .start(interval: 0, streams: LogRequest.defaultStreams, duration: nil))
        #expect(try BaroRequest.decode(nil) == .report && LevelRequest.decode(nil) == .report && CalibrateRequest.decode(nil) == .start(nil))
        #expect(try LockRequest.decode(JSONValue.parse(#"{"bearing":360}"#)) == LockRequest(bearing: 0))
    }
}
