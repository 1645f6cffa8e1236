import LodestoneCore
import LodestoneDomain

/// The NMEA 0183 sentences the device sends to chart plotters and autopilots: heading
/// (HDM, HDG, HDT), rate of turn (ROT), attitude and pressure as transducers (XDR), and the
/// meteorological composite (MDA). Fields the device does not know are left empty, as the
/// standard allows; every sentence carries its checksum.
public enum NMEAOutputSentences {
    /// "$" + body + "*" + the XOR of the body's bytes in two hex digits.
    public static func sentence(_ body: String) -> String { nmeaSentence(body) }

    /// A number with exactly `decimals` places ("" when it is not known).
    static func number(_ value: Double, _ decimals: Int) -> String {
        value.isFinite ? DecimalText.format(value, decimals) : ""
    }

    /// Heading, magnetic.
    public static func hdm(_ magnetic: Double) -> String { sentence("HCHDM,\(number(magnetic, 1)),M") }

    /// Heading, true (from the magnetic heading and the model's declination).
    public static func hdt(_ trueHeading: Double) -> String { sentence("HCHDT,\(number(trueHeading, 1)),T") }

    /// Heading with deviation and variation. The heading is already corrected by the device's
    /// calibration, so the deviation is 0; the variation is the declination, east or west.
    public static func hdg(_ magnetic: Double, variation: Double?) -> String {
        let v = variation.map { number(abs($0), 1) + "," + ($0 >= 0 ? "E" : "W") } ?? ","
        return sentence("HCHDG,\(number(magnetic, 1)),0.0,E,\(v)")
    }

    /// Rate of turn in degrees per minute, negative when the bow turns to port.
    public static func rot(degreesPerMinute: Double) -> String {
        sentence("HCROT,\(number(degreesPerMinute, 1)),\(degreesPerMinute.isFinite ? "A" : "V")")
    }

    /// Pitch and roll as angular transducers (bow up and starboard down positive).
    public static func xdrAttitude(pitch: Double, roll: Double) -> String {
        sentence("IIXDR,A,\(number(pitch, 1)),D,PTCH,A,\(number(roll, 1)),D,ROLL")
    }

    /// Pressure as a transducer in bar, and the air temperature.
    public static func xdrBarometer(pascal: Double, celsius: Double) -> String {
        sentence("IIXDR,P,\(number(pascal / 100_000, 5)),B,Barometer,C,\(number(celsius, 1)),C,AirTemp")
    }

    /// The meteorological composite: pressure in inches of mercury and bar, air temperature,
    /// relative humidity; water, dew point and wind are left empty.
    public static func mda(pascal: Double, celsius: Double, humidity: Double?) -> String {
        let inches = pascal / 3_386.389
        let rh = humidity.map { number($0, 1) } ?? ""
        return sentence("WIMDA,\(number(inches, 3)),I,\(number(pascal / 100_000, 4)),B,\(number(celsius, 1)),C,,C,\(rh),,,C,,T,,M,,N,,M")
    }
}
