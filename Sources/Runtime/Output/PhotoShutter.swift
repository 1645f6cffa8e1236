import LodestoneCore
import LodestoneDomain
import LodestoneReports

extension OutputContext {
    /// The shutter, from the socket (`?PHOTO;`), the command line, a button or the web app:
    /// a photo with the fix and the compass's direction (true north when the declination is
    /// known), filed with the track being recorded. PHOTO goes to every watcher too.
    func takePhoto() -> Report {
        guard let photos = services.photos else {
            return .error("this board has no camera: name one in the board file, \"camera\": {\"device\": \"/dev/video0\"}")
        }
        let direction: (degrees: Double, isTrue: Bool)?
        if let trueHeading = latest.trueHeading {
            direction = (trueHeading, true)
        } else {
            direction = latest.attitude.map { ($0.magneticHeading, false) }
        }
        return photos.take(at: utcNow(), fix: latest.fix, direction: direction, tracks: services.tracks)
    }
}
