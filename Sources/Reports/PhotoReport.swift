/// PHOTO: a photo taken, where it is kept, and what it holds.
public struct PhotoReport: Sendable, Equatable {
    /// The file under `<dataDir>/photos`.
    public var file: String
    public var time: Double
    public var latitude: Double?, longitude: Double?, altitude: Double?
    /// The compass's direction, degrees, and whether it is from true north.
    public var direction: Double?
    public var directionIsTrue: Bool
    /// The track it belongs to (the one being recorded), by name.
    public var track: String?
    public var width: Int, height: Int
    public var bytes: Int
    /// How the camera gave the frame (mjpeg, yuyv, rgb24) and the shutter's time to the file.
    public var format: String
    public var milliseconds: Double

    public init(
        file: String, time: Double, latitude: Double?, longitude: Double?, altitude: Double?, direction: Double?,
        directionIsTrue: Bool, track: String?, width: Int, height: Int, bytes: Int, format: String, milliseconds: Double
    ) {
        (self.file, self.time, self.latitude, self.longitude, self.altitude) = (file, time, latitude, longitude, altitude)
        (self.direction, self.directionIsTrue, self.track, self.width, self.height) = (direction, directionIsTrue, track, width, height)
        (self.bytes, self.format, self.milliseconds) = (bytes, format, milliseconds)
    }
}
