import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
import LodestoneStorage

/// The snapshots page's reads and its one change, over the store `lodestone snapshot` keeps;
/// each answer is what the tool prints for the same request (taking one is the socket's
/// `?SNAPSHOT`, `POST /api/v1/snapshot`).
enum WebSnapshots {
    /// `GET /api/v1/snapshots` (`list --json`), `/api/v1/snapshots/ID` (`show ID`),
    /// `/api/v1/snapshots/compare?from=ID&to=ID` (`compare --json`) and
    /// `/api/v1/snapshots/export?format=json|csv[&id=ID]` (`export`, as a download).
    static func reads(dataDirectory: String) -> [String: (HTTPRequest) -> HTTPResponse] {
        let store = SnapshotStore(dataDirectory: dataDirectory)
        return [
            "/api/v1/snapshots": { request in
                let rest = String(request.path.dropFirst("/api/v1/snapshots".count).drop { $0 == "/" })
                switch rest {
                case "": return .json(SnapshotJSON.list(store.list()))
                case "compare": return compare(store, request)
                case "export": return export(store, request)
                default:
                    guard let snapshot = load(store, rest) else { return missing(rest) }
                    return .json(SnapshotJSON.object(snapshot))
                }
            }
        ]
    }

    /// `POST /api/v1/snapshots/ID/delete {"confirm":true}`: the page asks the person first.
    static func writes(dataDirectory: String) -> [String: (HTTPRequest, JSONValue?) -> HTTPResponse] {
        let store = SnapshotStore(dataDirectory: dataDirectory)
        return [
            "/api/v1/snapshots": { request, body in
                let rest = request.path.dropFirst("/api/v1/snapshots/".count).split(separator: "/", omittingEmptySubsequences: false)
                guard request.path.hasPrefix("/api/v1/snapshots/"), rest.count == 2, rest.last == "delete", let id = rest.first.map(String.init),
                    load(store, id) != nil
                else {
                    return missing(String(rest.first ?? ""))
                }
                guard body?["confirm"]?.boolValue == true else { return WebWrites.failure("deleting a snapshot needs {\"confirm\":true}", status: 422) }
                guard store.delete(id: id) else { return WebWrites.failure("snapshot \(id) could not be deleted", status: 500) }
                return .json("{\"class\":\"SNAPSHOTS\",\"deleted\":" + JSONObjectWriter.quoted(id) + "}")
            }
        ]
    }

    /// A stored snapshot by the id its list gives (a name of at most 64 bytes, no folder in it).
    static func load(_ store: SnapshotStore, _ id: String) -> Snapshot? {
        guard !id.isEmpty, id.utf8.count <= 64, !id.contains("/"), !id.hasPrefix(".") else { return nil }
        return store.load(id: id)
    }

    static func missing(_ id: String) -> HTTPResponse {
        WebWrites.failure("no snapshot '\(String(id.prefix(64)))': GET /api/v1/snapshots lists them", status: 404)
    }

    static func compare(_ store: SnapshotStore, _ request: HTTPRequest) -> HTTPResponse {
        let from = request.parameter("from") ?? "", to = request.parameter("to") ?? ""
        guard let first = load(store, from) else { return missing(from) }
        guard let second = load(store, to) else { return missing(to) }
        return .json(SnapshotJSON.comparison(first, second))
    }

    static func export(_ store: SnapshotStore, _ request: HTTPRequest) -> HTTPResponse {
        let format = request.parameter("format") ?? "json"
        guard format == "json" || format == "csv" else { return .text(400, "format is json or csv") }
        var chosen = store.list(), name = "snapshots"
        if let id = request.parameter("id") {
            guard let one = load(store, id) else { return missing(id) }
            (chosen, name) = ([one], "snapshot-" + id)
        }
        return HTTPResponse(
            status: 200,
            headers: [
                .init(name: "content-type", value: format == "csv" ? "text/csv; charset=utf-8" : "application/json"),
                .init(name: "content-disposition", value: "attachment; filename=\"\(name).\(format)\""),
                .init(name: "cache-control", value: "no-store")
            ],
            body: Array(SnapshotStore.export(chosen, one: request.parameter("id") != nil, format: format).utf8))
    }
}
