import LodestoneDevices
import LodestoneHAL

// The chip drivers already have the shape the sampling loop needs.
extension MPU6050: SampledSensor {}
extension QMC5883L: SampledSensor {}
extension BMP280: SampledSensor {}

typealias IMUDriver = MPU6050
typealias MagnetometerDriver = QMC5883L
typealias BarometerDriver = BMP280
