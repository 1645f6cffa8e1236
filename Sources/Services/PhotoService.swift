import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneHAL
import LodestoneReports
import LodestoneStorage

/// The shutter: a frame from the camera (kept streaming, so it answers at once), made a JPEG
/// (an MJPEG frame as it came; YUYV and RGB encoded here) with an EXIF block of its time and,
/// with a fix, its position, altitude and the compass's direction; filed under the data
/// directory's photos and with the track being recorded.
package final class PhotoService {
    let camera: any Camera
    package let store: PhotoStore
    /// Real time, for the shutter's figure (the simulated board's clock runs at the trip's pace).
    let clock = SystemMonotonicClock()

    package init(camera: any Camera, store: PhotoStore) {
        (self.camera, self.store) = (camera, store)
    }

    /// Takes a photo at UTC `time`; PHOTO, or ERROR saying what failed.
    package func take(at time: Double, fix: GPSFix, direction: (degrees: Double, isTrue: Bool)?, tracks: TrackService?) -> Report {
        let start = clock.now()
        let frame: CameraFrame
        do { frame = try camera.capture(timeoutMilliseconds: 1000) } catch { return .error("no photo: \(error.description)") }
        let place =
            fix.hasPosition
            ? EXIFWriter.Place(latitude: fix.latitude, longitude: fix.longitude, altitude: fix.mode == .threeD ? fix.altitudeMSL : .nan) : nil
        let app1 = EXIFWriter.app1(time: time, place: place, direction: place == nil ? nil : direction)
        let jpeg: [UInt8]?
        switch frame.format {
        case .mjpeg: jpeg = JPEGEncoder.insertingEXIF(frame.bytes, app1: app1)
        case .yuyv: jpeg = JPEGEncoder.encode(width: frame.width, height: frame.height, yuyv: frame.bytes, app1: app1)
        case .rgb24: jpeg = JPEGEncoder.encode(width: frame.width, height: frame.height, rgb: frame.bytes, app1: app1)
        }
        guard let jpeg else { return .error("no photo: the camera's \(frame.format.rawValue) frame could not be read (\(frame.bytes.count) bytes)") }
        let file: String
        do { file = try store.save(jpeg, time: time) } catch { return .error("no photo: \(error.description)") }
        var track: String?
        if let recording = tracks?.recording {
            let photo = TrackPhoto(file: file, time: time, latitude: place?.latitude ?? .nan, longitude: place?.longitude ?? .nan)
            if recording.append(photo) {
                track = recording.name
            } else {
                Log.warning("photo \(file) is kept, but the track '\(recording.name)' could not note it (is the disk full?)")
            }
        }
        let milliseconds = Double(clock.now() &- start) / 1e6
        return .photo(
            PhotoReport(
                file: file, time: time, latitude: place?.latitude, longitude: place?.longitude,
                altitude: place.flatMap { $0.altitude.isFinite ? $0.altitude : nil },
                direction: place == nil ? nil : direction?.degrees, directionIsTrue: direction?.isTrue ?? false,
                track: track, width: frame.width, height: frame.height, bytes: jpeg.count, format: frame.format.rawValue,
                milliseconds: milliseconds))
    }
}
