import LodestoneCore
import LodestoneDomain

/// What the services on the output thread hand to the sampling side and ask of it, and
/// nothing else: the sampling thread's own work stays behind `SensorPipeline`, which is the
/// one conformer. Every member is safe from any thread (cells and atomics the sampling
/// thread takes from at its own pace).
public protocol SamplingControl: AnyObject {
    /// Earth's field where the device is (from the model, once there is a fix): the compass
    /// service publishes it and reads back what it published.
    var expectedField: LatestValue<ExpectedField?> { get }
    /// The magnetometer calibration the heading uses (loaded at start or newly fitted).
    var magnetometerCalibration: LatestValue<MagnetometerCalibration?> { get }
    /// The magnetometer's axes to the body's (its mounting), for the fit, which works in the
    /// chip's own axes.
    var magnetometerAxes: AxisMapping { get }
    /// Asks for a chip's own output rate to follow a new sampling rate; nil leaves it.
    func requestChipRate(imu hz: Double?, magnetometer magnetometerHz: Double?)
    /// Tells the receiver's health check how often fixes should now come, seconds.
    func expectFixes(every seconds: Double)
}
