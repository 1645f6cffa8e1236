import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

extension TrackStore {
    /// A track with its photos, as one tar: `<id>.gpx` (its photos linked as `photos/NAME.jpg`)
    /// and the photos beside it. Shared (`privacy` given): the photos taken inside the trimmed
    /// places are left out, and the others lose the position in their EXIF (their time is kept
    /// unless the times are dropped too). Nil when the track is not there.
    public func exportWithPhotos(id: String, privacy: PrivacyTrim? = nil, now: Double) -> (archive: [UInt8], photos: Int, missing: [String])? {
        guard let loaded = loadWithPhotos(id: id), let gpx = export(id: id, loaded: loaded, format: "gpx", privacy: privacy) else { return nil }
        let store = PhotoStore(dataDirectory: dataDirectory)
        var tar = TarArchive()
        tar.add(id + ".gpx", Array(gpx.utf8), modified: now)
        var added = 0, missing: [String] = []
        for photo in loaded.photos {
            if let privacy, !privacy.keeps(photo) { continue }
            guard let bytes = try? readStoreBytes(store.path(photo.file)) else { missing.append(photo.file); continue }
            var kept = bytes
            if let privacy {
                let app1 = EXIFWriter.app1(time: privacy.dropTimes ? nil : photo.time, place: nil, direction: nil)
                kept = JPEGEncoder.insertingEXIF(bytes, app1: app1) ?? bytes
            }
            tar.add("photos/" + photo.file, kept, modified: now)
            added += 1
        }
        return (tar.finished, added, missing)
    }
}

extension PrivacyTrim {
    /// Whether a shared export keeps a photo: not when it was taken inside a trimmed place.
    func keeps(_ photo: TrackPhoto) -> Bool {
        !photo.hasPlace || keeps(TrackPoint(time: photo.time, latitude: photo.latitude, longitude: photo.longitude))
    }
}
