/// A photo taken while a track was recorded: its file under `<dataDir>/photos`, when, and
/// where (NaN without a fix).
public struct TrackPhoto: Sendable, Equatable {
    public var file: String
    public var time: Double
    public var latitude: Double, longitude: Double

    public init(file: String, time: Double, latitude: Double, longitude: Double) {
        (self.file, self.time, self.latitude, self.longitude) = (file, time, latitude, longitude)
    }

    public var hasPlace: Bool { latitude.isFinite && longitude.isFinite }
}
