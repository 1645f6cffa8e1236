import LodestoneCore

extension NMEAParser {
    /// The fields of one sentence that `GPSLimits` holds, in SI units (NaN where the sentence
    /// has none): read once, checked, then applied, so a sentence is dropped whole before any
    /// of it reaches the fix and no field is parsed twice.
    struct Measured {
        var speed = Double.nan, course = Double.nan, altitude = Double.nan
        var hdop = Double.nan, pdop = Double.nan, vdop = Double.nan

        @inline(__always)
        init(_ f: NMEAFields, type: UInt32) {
            switch type {
            case NMEAParser.gga, NMEAParser.gns:
                hdop = f.number(8)
                altitude = f.number(9)
            case NMEAParser.rmc:
                speed = f.number(7) * 1852 / 3600
                course = f.number(8)
            case NMEAParser.vtg:
                course = f.number(1)
                speed = f.number(7) / 3.6
            case NMEAParser.gsa:
                pdop = f.number(15)
                hdop = f.number(16)
                vdop = f.number(17)
            case NMEAParser.rmz where f.isProprietary("GRMZ"):
                // PGRMZ: whole feet above mean sea level.
                altitude = f.number(1).rounded(.towardZero) * 0.3048
            default:
                break
            }
        }

        /// Whether every field is one a receiver can report: the check every sentence pays, so
        /// comparisons only (each is false for NaN, an absent field).
        @inline(__always)
        var isPossible: Bool {
            !(speed < 0 || speed > GPSLimits.highestSpeed
                || altitude < GPSLimits.lowestAltitude || altitude > GPSLimits.highestAltitude
                || course < 0 || course > GPSLimits.highestCourse
                || hdop < 0 || pdop < 0 || vdop < 0)
        }

        /// The first field beyond what a receiver can report, or nil.
        var impossible: ImpossibleGPSField? {
            if speed < 0 || speed > GPSLimits.highestSpeed { return .speed(speed) }
            if altitude < GPSLimits.lowestAltitude || altitude > GPSLimits.highestAltitude { return .altitude(altitude) }
            if course < 0 || course > GPSLimits.highestCourse { return .course(course) }
            // A DOP of 0 is how many receivers say "none" (as others say 99.99): absent, not
            // impossible; a negative one is neither.
            if hdop < 0 { return .dilution(hdop) }
            if pdop < 0 { return .dilution(pdop) }
            if vdop < 0 { return .dilution(vdop) }
            return nil
        }
    }
}
