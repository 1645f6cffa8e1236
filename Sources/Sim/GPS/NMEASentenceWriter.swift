import LodestoneCore

/// Formats NMEA 0183 sentences as a receiver sends them: `$` + body + `*` + checksum + CRLF.
public enum NMEASentenceWriter {
    /// Wraps a sentence body ("GPGGA,...") with its start character, checksum and CR LF.
    public static func sentence(_ body: String) -> String { nmeaSentence(body) + "\r\n" }

    /// "hhmmss.ss"
    public static func time(_ t: CivilTime) -> String {
        let hundredths = Int((t.second * 100).rounded(.down))
        return zeroPadded(t.hour, 2) + zeroPadded(t.minute, 2) + zeroPadded(hundredths / 100, 2) + "." + zeroPadded(hundredths % 100, 2)
    }

    /// "ddmmyy"
    public static func date(_ t: CivilTime) -> String { zeroPadded(t.day, 2) + zeroPadded(t.month, 2) + zeroPadded(t.year % 100, 2) }

    /// Latitude as "ddmm.mmmmm,N".
    public static func latitude(_ degrees: Double) -> String {
        coordinate(abs(degrees), degreeDigits: 2) + "," + (degrees >= 0 ? "N" : "S")
    }

    /// Longitude as "dddmm.mmmmm,E".
    public static func longitude(_ degrees: Double) -> String {
        coordinate(abs(degrees), degreeDigits: 3) + "," + (degrees >= 0 ? "E" : "W")
    }

    static func coordinate(_ value: Double, degreeDigits: Int) -> String {
        var whole = Int(value)
        var minutes = (value - Double(whole)) * 60
        var scaled = Int((minutes * 100_000).rounded())
        if scaled >= 6_000_000 { whole += 1; scaled -= 6_000_000 }
        minutes = Double(scaled) / 100_000
        return zeroPadded(whole, degreeDigits) + zeroPadded(scaled / 100_000, 2) + "." + zeroPadded(scaled % 100_000, 5)
    }
}
