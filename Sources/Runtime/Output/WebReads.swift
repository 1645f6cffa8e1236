import LodestoneCore
import LodestoneEncoding
import LodestoneOutputs
import LodestoneStorage

/// The web app's reads of what the device keeps: the recorded tracks (a page of summaries,
/// one track with its statistics, its GPX) and the photos. The waypoints are the running
/// device's (`WebWaypointReads`: measured from where it is).
enum WebReads {
    static let pageSize = 50

    static func routes(dataDirectory: String) -> [String: (HTTPRequest) -> HTTPResponse] {
        let tracks = TrackStore(dataDirectory: dataDirectory)
        let photos = PhotoStore(dataDirectory: dataDirectory)
        return [
            // GET /api/v1/photos/NAME.jpg: a photo as it is kept.
            "/api/v1/photos": { request in
                let name = String(request.path.dropFirst("/api/v1/photos/".count))
                guard request.path.hasPrefix("/api/v1/photos/"), name.hasSuffix(".jpg"), BackupStores.isSafeName(Substring(name)),
                    let bytes = try? readStoreBytes(photos.path(name), limit: 64 << 20)
                else {
                    return .text(404, "no photo \(name): a track's JSON (GET /api/v1/tracks/ID) names its photos")
                }
                return HTTPResponse(
                    status: 200,
                    headers: [
                        .init(name: "content-type", value: "image/jpeg"),
                        .init(name: "cache-control", value: "private, max-age=86400")
                    ], body: bytes)
            },
            "/api/v1/tracks": { request in
                let rest = String(request.path.dropFirst("/api/v1/tracks".count))
                return rest.isEmpty ? list(tracks, request) : track(tracks, id: String(rest.dropFirst()))
            }
        ].merging(WebSnapshots.reads(dataDirectory: dataDirectory)) { stored, _ in stored }
    }

    /// `GET /api/v1/tracks?q=TEXT&tag=TAG&sort=newest|oldest|longest|shortest|duration|pace|name&page=N`.
    static func list(_ store: TrackStore, _ request: HTTPRequest) -> HTTPResponse {
        var query = TrackStore.Query()
        if let sort = request.parameter("sort") {
            guard let order = TrackStore.Order(rawValue: sort) else {
                return .text(400, "sort is one of " + TrackStore.Order.allCases.map(\.rawValue).joined(separator: ", "))
            }
            query.order = order
        }
        query.text = request.parameter("q").flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }
        query.tag = request.parameter("tag").flatMap { $0.isEmpty ? nil : String($0.prefix(100)) }
        let page = request.parameter("page").flatMap { Int($0) } ?? 1
        guard (1...100_000).contains(page) else { return .text(400, "page is a whole number from 1") }
        let all = store.list(query)
        let shown = all.dropFirst((page - 1) * pageSize).prefix(pageSize)
        var json = "{\"class\":\"TRACKS\",\"total\":\(all.count),\"page\":\(page),\"pageSize\":\(pageSize),\"tracks\":["
        json += shown.map { s in
            var w = JSONObjectWriter()
            w.string("id", s.id)
            w.string("name", s.name)
            w.number("started", s.started, decimals: 0)
            w.number("distance", s.distance, decimals: 1)
            w.number("movingTime", s.movingTime, decimals: 0)
            w.number("totalTime", s.totalTime, decimals: 0)
            w.number("elevationGain", s.elevationGain, decimals: 1)
            w.integer("points", s.points)
            w.raw("tags", "[" + s.tags.map(JSONObjectWriter.quoted).joined(separator: ",") + "]")
            w.string("notes", s.notes)
            return w.finished
        }.joined(separator: ",")
        return .json(json + "]}")
    }

    /// `GET /api/v1/tracks/ID` (the points and statistics) and `/api/v1/tracks/ID.gpx`.
    static func track(_ store: TrackStore, id: String) -> HTTPResponse {
        let gpx = id.hasSuffix(".gpx")
        let name = gpx ? String(id.dropLast(4)) : id
        guard !name.isEmpty, name.utf8.count <= 64, !name.contains("/"), store.contains(id: name),
            let text = store.export(id: name, format: gpx ? "gpx" : "json")
        else {
            return .text(404, "no track \(name): GET /api/v1/tracks lists them")
        }
        guard gpx else { return .json(text) }
        return HTTPResponse(
            status: 200,
            headers: [
                .init(name: "content-type", value: "application/gpx+xml"),
                .init(name: "content-disposition", value: "attachment; filename=\"\(name).gpx\""),
                .init(name: "cache-control", value: "no-store")
            ],
            body: Array(text.utf8))
    }
}
