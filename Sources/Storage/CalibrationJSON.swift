import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// A stored calibration that cannot be used, and why.
public struct CalibrationFileError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}

/// The JSON form of a magnetometer calibration, shared by the calibration files and the
/// `lodestone calibrate --json` output so both read the same way:
/// `"offset":[x,y,z],"softIron":[[..],[..],[..]],"fieldStrength":..,"residualRMS":..,
/// "coverage":..,"expectedHeadingError":..,"headingUncertainty":..` where calibrated =
/// softIron x (raw - offset).
public enum CalibrationJSON {
    public static let version = 1

    public static func array(_ v: Vector3, decimals: Int) -> String {
        "[" + [v.x, v.y, v.z].map { numberText($0, decimals: decimals) }.joined(separator: ",") + "]"
    }

    /// A JSON number, or null when not finite. Values beyond a billion are written without
    /// decimals: JSONObjectWriter.format scales by 10^decimals into an Int64, which a wild fit
    /// from bad data could otherwise overflow (such a calibration is refused anyway).
    public static func numberText(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        return JSONObjectWriter.format(value, decimals: abs(value) < 1e9 ? decimals : 0)
    }

    public static func matrix(_ m: Matrix3) -> String {
        "[" + [m.row0, m.row1, m.row2].map { array($0, decimals: 6) }.joined(separator: ",") + "]"
    }

    /// The calibration's fields, in the documented order. A missing calibration writes nulls,
    /// so a reader always finds the same keys.
    public static func write(_ calibration: MagnetometerCalibration?, into w: inout JSONObjectWriter) {
        guard let c = calibration else {
            for key in ["offset", "softIron", "fieldStrength", "residualRMS", "coverage", "expectedHeadingError", "headingUncertainty"] {
                w.null(key)
            }
            return
        }
        w.raw("offset", array(c.hardIronOffset, decimals: 4))
        w.raw("softIron", matrix(c.softIron))
        number(&w, "fieldStrength", c.fieldStrength, 3)
        number(&w, "residualRMS", c.residualRMS, 4)
        number(&w, "coverage", c.coverage, 3)
        number(&w, "expectedHeadingError", c.expectedHeadingError, 2)
        number(&w, "headingUncertainty", c.headingUncertainty ?? .nan, 3)
    }

    /// A number, or null when it is not finite (so the key is never silently missing).
    static func number(_ w: inout JSONObjectWriter, _ key: String, _ value: Double, _ decimals: Int) {
        w.raw(key, numberText(value, decimals: decimals))
    }

    /// The whole file: one JSON object on one line.
    public static func file(_ calibration: MagnetometerCalibration, sensor: String) -> String {
        var w = JSONObjectWriter()
        w.integer("version", version)
        w.string("sensor", sensor)
        w.string("model", calibration.model.rawValue)
        write(calibration, into: &w)
        return w.finished + "\n"
    }

    /// Reads a calibration file's text, checking every field: a file cut short, edited by hand
    /// or from another program is refused with the reason, never half used.
    public static func decode(_ text: String) throws(CalibrationFileError) -> MagnetometerCalibration {
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { throw CalibrationFileError(message: "not valid JSON (\(error.description))") }
        guard case .object = value else { throw CalibrationFileError(message: "expected a JSON object, found \(value.kind)") }
        guard let version = value["version"]?.numberValue else { throw CalibrationFileError(message: "no \"version\"") }
        guard version == Double(CalibrationJSON.version) else {
            throw CalibrationFileError(
                message: "version \(numberText(version, decimals: 3)) is not supported (this build reads version \(CalibrationJSON.version))")
        }
        var model = FieldFit.Model.ellipsoid
        if let name = value["model"] {
            guard let text = name.stringValue, let m = FieldFit.Model(rawValue: text) else {
                throw CalibrationFileError(message: "\"model\" must be \"ellipsoid\", \"sphere\" or \"swing\"")
            }
            model = m
        }
        let offset = try vector(value["offset"], "offset")
        guard case .array(let rows)? = value["softIron"], rows.count == 3 else {
            throw CalibrationFileError(message: "\"softIron\" must be 3 rows of 3 numbers")
        }
        let softIron = Matrix3(
            try vector(rows[0], "softIron row 1"), try vector(rows[1], "softIron row 2"),
            try vector(rows[2], "softIron row 3"))
        let fieldStrength = try number(value, "fieldStrength")
        let residual = try number(value, "residualRMS")
        let coverage = try number(value, "coverage")
        let headingError = try number(value, "expectedHeadingError")
        // Files saved before the uncertainty was measured have none (or null).
        let uncertainty = value["headingUncertainty"]?.numberValue

        // Plausibility: a correction that could only come from a corrupt file.
        guard offset.length < 10_000 else { throw CalibrationFileError(message: "\"offset\" is beyond any magnetometer's range") }
        let determinant = softIron.determinant
        guard determinant > 0.1 && determinant < 10 else {
            throw CalibrationFileError(message: "\"softIron\" is not a plausible correction (determinant \(numberText(determinant, decimals: 4)))")
        }
        guard fieldStrength > 0 && fieldStrength < 1000 else {
            throw CalibrationFileError(message: "\"fieldStrength\" must be a positive number of microtesla")
        }
        guard residual >= 0 else { throw CalibrationFileError(message: "\"residualRMS\" must not be negative") }
        guard (0...1).contains(coverage) else { throw CalibrationFileError(message: "\"coverage\" must be from 0 to 1") }
        guard headingError >= 0 && headingError <= 180 else { throw CalibrationFileError(message: "\"expectedHeadingError\" must be 0..180 degrees") }
        if let uncertainty, !(uncertainty >= 0 && uncertainty <= 180) {
            throw CalibrationFileError(message: "\"headingUncertainty\" must be 0..180 degrees")
        }
        return MagnetometerCalibration(
            model: model, hardIronOffset: offset, softIron: softIron, fieldStrength: fieldStrength,
            residualRMS: residual, coverage: coverage, expectedHeadingError: headingError,
            headingUncertainty: uncertainty)
    }

    static func vector(_ value: JSONValue?, _ name: String) throws(CalibrationFileError) -> Vector3 {
        guard case .array(let items)? = value, items.count == 3,
            let x = items[0].numberValue, let y = items[1].numberValue, let z = items[2].numberValue
        else {
            throw CalibrationFileError(message: "\"\(name)\" must be an array of 3 numbers")
        }
        return Vector3(x, y, z)
    }

    static func number(_ object: JSONValue, _ key: String) throws(CalibrationFileError) -> Double {
        guard let member = object[key] else { throw CalibrationFileError(message: "no \"\(key)\"") }
        guard let n = member.numberValue else { throw CalibrationFileError(message: "\"\(key)\" must be a number, not \(member.kind)") }
        return n
    }
}
