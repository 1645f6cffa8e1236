import LodestoneCore
import LodestoneEncoding

extension TrackStore.Summary {
    /// The summary as `track list --json` and MQTT's `.../track/<id>/summary` carry it.
    public var json: String {
        let t = self
        var w = JSONObjectWriter()
        w.string("id", t.id)
        w.string("name", t.name)
        w.string("started", CivilTime(unixSeconds: t.started).iso8601)
        w.number("distance", t.distance, decimals: 1)
        w.number("movingTime", t.movingTime, decimals: 0)
        w.number("totalTime", t.totalTime, decimals: 0)
        w.number("pace", t.pace > 0 ? t.pace : .nan, decimals: 0)
        w.number("elevationGain", t.elevationGain, decimals: 1)
        w.integer("points", t.points)
        w.raw("tags", "[" + t.tags.map(JSONObjectWriter.quoted).joined(separator: ",") + "]")
        if !t.notes.isEmpty { w.string("notes", t.notes) }
        if t.isPrivate { w.bool("private", true) }
        if t.timeless { w.bool("timeless", true) }
        return w.finished
    }
}
