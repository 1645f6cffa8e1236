import LodestoneCore

/// The EXIF block of a photo (JPEG's APP1: "Exif", then a big-endian TIFF structure, EXIF 2.32
/// and its GPS attributes): when it was taken (UTC, said with its offset) and, with a fix,
/// where: latitude and longitude as degrees, minutes and seconds, the altitude above sea level,
/// the GPS time and date, and the direction the camera pointed (the compass, magnetic or true).
public enum EXIFWriter {
    public struct Place: Sendable, Equatable {
        public var latitude: Double, longitude: Double
        /// Metres above mean sea level; NaN when unknown.
        public var altitude: Double
        public init(latitude: Double, longitude: Double, altitude: Double = .nan) {
            (self.latitude, self.longitude, self.altitude) = (latitude, longitude, altitude)
        }
    }

    /// The APP1 segment's body for a photo taken at UTC `time` (nil: a shared photo's time
    /// left out); `place` and `direction` (degrees, with whether it is from true north) when
    /// known, and only with a time (the GPS time and date are part of the place).
    public static func app1(time: Double?, place: Place?, direction: (degrees: Double, isTrue: Bool)?, camera: String = "Lodestone") -> [UInt8] {
        let civil = CivilTimeText(time ?? 0)
        var ifd0: [Entry] = [Entry(tag: 0x010F, ascii: camera)]
        var exif: [Entry] = [Entry(tag: 0x9000, type: 7, count: 4, data: Array("0232".utf8))]
        if time != nil {
            ifd0.append(Entry(tag: 0x0132, ascii: civil.exif))
            exif += [Entry(tag: 0x9003, ascii: civil.exif), Entry(tag: 0x9011, ascii: "+00:00")]
        }
        var gps: [Entry] = []
        if time != nil, let place, place.latitude.isFinite, place.longitude.isFinite, abs(place.latitude) <= 90, abs(place.longitude) <= 180 {
            gps.append(Entry(tag: 0x0000, type: 1, count: 4, data: [2, 3, 0, 0]))
            gps.append(Entry(tag: 0x0001, ascii: place.latitude >= 0 ? "N" : "S"))
            gps.append(Entry(tag: 0x0002, rationals: sexagesimal(abs(place.latitude))))
            gps.append(Entry(tag: 0x0003, ascii: place.longitude >= 0 ? "E" : "W"))
            gps.append(Entry(tag: 0x0004, rationals: sexagesimal(abs(place.longitude))))
            if place.altitude.isFinite, abs(place.altitude) < 100_000 {
                gps.append(Entry(tag: 0x0005, type: 1, count: 1, data: [place.altitude < 0 ? 1 : 0]))
                gps.append(Entry(tag: 0x0006, rationals: [(UInt32((abs(place.altitude) * 100).rounded()), 100)]))
            }
            gps.append(Entry(tag: 0x0007, rationals: [(UInt32(civil.hour), 1), (UInt32(civil.minute), 1), (UInt32((civil.second * 1000).rounded()), 1000)]))
            if let direction, direction.degrees.isFinite {
                let degrees = (direction.degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
                gps.append(Entry(tag: 0x0010, ascii: direction.isTrue ? "T" : "M"))
                gps.append(Entry(tag: 0x0011, rationals: [(UInt32((degrees * 100).rounded()), 100)]))
            }
            gps.append(Entry(tag: 0x001D, ascii: civil.gpsDate))
        }
        // IFD0 points at the EXIF and GPS IFDs that follow it.
        let pointerCount = gps.isEmpty ? 1 : 2
        ifd0.append(Entry(tag: 0x8769, long: 0))
        if !gps.isEmpty { ifd0.append(Entry(tag: 0x8825, long: 0)) }
        let ifd0Offset = 8
        let ifd0Size = size(of: ifd0)
        let exifOffset = ifd0Offset + ifd0Size
        let gpsOffset = exifOffset + size(of: exif)
        ifd0[ifd0.count - pointerCount] = Entry(tag: 0x8769, long: UInt32(exifOffset))
        if !gps.isEmpty { ifd0[ifd0.count - 1] = Entry(tag: 0x8825, long: UInt32(gpsOffset)) }
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
        tiff += layout(ifd0, at: ifd0Offset)
        tiff += layout(exif, at: exifOffset)
        if !gps.isEmpty { tiff += layout(gps, at: gpsOffset) }
        return Array("Exif".utf8) + [0, 0] + tiff
    }

    /// One IFD entry: its tag, TIFF type, count and bytes (big-endian).
    struct Entry {
        var tag: UInt16, type: UInt16, count: UInt32, data: [UInt8]

        init(tag: UInt16, type: UInt16, count: UInt32, data: [UInt8]) {
            (self.tag, self.type, self.count, self.data) = (tag, type, count, data)
        }
        init(tag: UInt16, ascii: String) {
            let bytes = Array(ascii.utf8.filter { $0 >= 0x20 && $0 < 0x7F }) + [0]
            self.init(tag: tag, type: 2, count: UInt32(bytes.count), data: bytes)
        }
        init(tag: UInt16, long: UInt32) { self.init(tag: tag, type: 4, count: 1, data: EXIFWriter.bigEndian(long)) }
        init(tag: UInt16, rationals: [(UInt32, UInt32)]) {
            self.init(tag: tag, type: 5, count: UInt32(rationals.count), data: rationals.flatMap { EXIFWriter.bigEndian($0.0) + EXIFWriter.bigEndian($0.1) })
        }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    /// Bytes an IFD takes: its count, 12 per entry, the next IFD's offset, and the values longer
    /// than four bytes (each padded to an even length).
    static func size(of entries: [Entry]) -> Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.data.count > 4 ? ($1.data.count + 1) & ~1 : 0) }
    }

    /// An IFD at `offset` in the TIFF structure: entries in tag order, the longer values after them.
    static func layout(_ given: [Entry], at offset: Int) -> [UInt8] {
        let entries = given.sorted { $0.tag < $1.tag }
        var head: [UInt8] = [UInt8(entries.count >> 8), UInt8(entries.count & 0xFF)]
        var tail: [UInt8] = []
        var next = offset + 2 + 12 * entries.count + 4
        for entry in entries {
            head += [UInt8(entry.tag >> 8), UInt8(entry.tag & 0xFF), UInt8(entry.type >> 8), UInt8(entry.type & 0xFF)] + bigEndian(entry.count)
            if entry.data.count <= 4 {
                head += entry.data + [UInt8](repeating: 0, count: 4 - entry.data.count)
            } else {
                head += bigEndian(UInt32(next))
                tail += entry.data
                if entry.data.count % 2 == 1 { tail.append(0) }
                next += (entry.data.count + 1) & ~1
            }
        }
        return head + [0, 0, 0, 0] + tail
    }

    /// Degrees as degrees, minutes and seconds (to a thousandth of a second: 3 cm).
    static func sexagesimal(_ degrees: Double) -> [(UInt32, UInt32)] {
        let totalMilliseconds = (degrees * 3_600_000).rounded()
        let whole = UInt32(totalMilliseconds / 3_600_000)
        let minutes = UInt32((totalMilliseconds - Double(whole) * 3_600_000) / 60_000)
        let rest = totalMilliseconds - Double(whole) * 3_600_000 - Double(minutes) * 60_000
        return [(whole, 1), (minutes, 1), (UInt32(rest), 1000)]
    }
}

/// A UTC time in EXIF's forms ("2026:06:21 08:00:05" and the GPS date "2026:06:21").
struct CivilTimeText {
    let exif: String, gpsDate: String
    let hour: Int, minute: Int, second: Double

    init(_ time: Double) {
        let civil = CivilTime(unixSeconds: time)
        (hour, minute, second) = (civil.hour, civil.minute, civil.second)
        gpsDate = zeroPadded(civil.year, 4) + ":" + zeroPadded(civil.month, 2) + ":" + zeroPadded(civil.day, 2)
        exif = gpsDate + " " + zeroPadded(hour, 2) + ":" + zeroPadded(minute, 2) + ":" + zeroPadded(Int(second), 2)
    }
}
