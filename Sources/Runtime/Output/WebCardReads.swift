import LodestoneCore
import LodestoneOutputs
import LodestoneReports
import LodestoneStorage

/// The cards a phone shares: `GET /api/v1/tracks/ID/card.png` draws a finished track's card
/// (as `lodestone track card`) in the device's zone, in the units and the language the page
/// asks for (`?units=`, `?lang=`) or else the device's. Every other read under
/// `/api/v1/tracks` is the stored tracks' (`WebReads`).
enum WebCardReads {
    static func tracks<Clock: MonotonicClock>(
        _ loop: OutputLoop<Clock>, dataDirectory: String, otherwise stored: ((HTTPRequest) -> HTTPResponse)?
    ) -> (HTTPRequest) -> HTTPResponse {
        let store = TrackStore(dataDirectory: dataDirectory)
        return { [unowned loop] request in
            let rest = request.path.dropFirst("/api/v1/tracks/".count)
            guard request.path.hasPrefix("/api/v1/tracks/"), rest.hasSuffix("/card.png") else {
                return stored?(request) ?? .text(404, "no API \(request.path) on this device")
            }
            let id = String(rest.dropLast("/card.png".count))
            var units = loop.running.units, language = loop.running.language
            if let asked = request.parameter("units") {
                guard let chosen = Units(rawValue: asked) else { return .text(400, "units is metric, imperial or nautical") }
                units = chosen
            }
            if let asked = request.parameter("lang") {
                guard let chosen = Language(rawValue: asked) else { return .text(400, "lang is en or de") }
                language = chosen
            }
            guard !id.isEmpty, id.utf8.count <= 64, let loaded = StoredTrackPanel.load(id: id, store: store, dataDirectory: dataDirectory) else {
                return .text(404, "no track \(id): GET /api/v1/tracks lists them")
            }
            let png = TrackCard.png(loaded.panel, started: loaded.started, zone: loop.context.services.localClock.zone, units: units, language: language)
            return HTTPResponse(
                status: 200,
                headers: [
                    .init(name: "content-type", value: "image/png"),
                    .init(name: "content-disposition", value: "inline; filename=\"\(id)-card.png\""),
                    .init(name: "cache-control", value: "no-store")
                ], body: png)
        }
    }
}
