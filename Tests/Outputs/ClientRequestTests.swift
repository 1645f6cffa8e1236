import LodestoneOutputs
import Testing

@Suite struct ClientRequestTests {
    @Test func parsesGPSDCommands() {
        #expect(ClientRequest.parse(line: "?POLL;") == [.poll])
        #expect(ClientRequest.parse(line: "?DEVICES;?VERSION;") == [.devices, .version])
        let watch = ClientRequest.parse(line: #"?WATCH={"enable":true,"json":true};"#)
        #expect(watch == [.watch(.object([("enable", .bool(true)), ("json", .bool(true))]))])
        #expect(ClientRequest.parse(line: "?WATCH;") == [.watch(nil)])
        #expect(ClientRequest.parse(line: "?STATUS;\r") == [.status])
    }

    @Test func answersNonsenseWithAnErrorNotACrash() {
        for line in ["hello", "?", "?FOO;", "?WATCH={\"enable\":", "?WATCH={nope};", "\u{0}\u{1}\u{2}", "?WATCH=[1];",
                     String(repeating: "?", count: 5000)] {
            let requests = ClientRequest.parse(line: line)
            #expect(requests.contains { if case .invalid = $0 { return true }; return false },
                    "\(line.prefix(20)) gave \(requests.prefix(3))")
            #expect(!requests.contains(.poll))
        }
        #expect(ClientRequest.parse(line: "?FOO;") == [.invalid("Unrecognized request 'FOO'")])
    }
}
