import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import LodestoneSettings

enum WatchCommand {
    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["socket", "count"], flags: []), command: "watch")
        let count = try options.integer("count", in: 1...Int.max)
        let path = options.values["socket"] ?? Configuration.clientSocketPath()
        let client: ReportClient
        do { client = try ReportClient(path: path) } catch {
            Log.error(error.description)
            return 1
        }
        var watch = WatchOptions()
        (watch.enabled, watch.json) = (true, true)
        client.send(watch.text)
        var printed = 0
        while printed < (count ?? Int.max) {
            guard let line = client.readLine(timeoutMilliseconds: 10_000) else {
                Log.error("the connection to \(path) closed or went quiet for 10 s")
                return 1
            }
            writeOut(line + "\n")
            printed += 1
        }
        return 0
    }
}
