import Glibc
import LodestoneCore
import LodestoneRuntime
@testable import LodestoneEncoding
import LodestoneStorage
import Testing

/// Photos from the outside: the simulated board's camera through `lodestone photo take` while
/// a track records; the JPEG decodes (djpeg), its EXIF position is the fix the PHOTO report
/// gave (Pillow), the track lists it and its GPX links it.
@Suite(.serialized) struct PhotoTests {
    /// Whether Python's imaging library is installed (it reads a photo's EXIF back).
    static var pillow: Bool { TerminalDisplayTests.output("/usr/bin/python3 -c 'import PIL; print(\"ok\")'").contains("ok") }

    @Test func aPhotoTakenOnTheTrailBelongsToTheTrack() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-e2e-photo-\(getpid())"
        let socket = data + ".sock"
        defer { removeTree(data) }
        let device = try end.spawn(["run", "--speed", "10", "--socket", socket, "--display", "none", "--data-dir", data, "--duration", "60"])
        _ = try #require(end.connect(socket))
        usleep(3_000_000)
        #expect(end.finish(try end.spawn(["track", "start", "--name", "Photo walk", "--interval", "1", "--socket", socket])).0 == 0)
        usleep(2_000_000)
        let (status, answer) = end.finish(try end.spawn(["photo", "take", "--json", "--socket", socket]))
        #expect(status == 0, "\(answer)")
        let photo = try JSONValue.parse(String(answer.split(separator: "\n").last ?? ""))
        _ = end.finish(try end.spawn(["track", "stop", "--socket", socket]))
        kill(device.pid, SIGTERM)
        _ = end.finish(device)
        let file = try #require(photo["file"]?.stringValue)
        let latitude = try #require(photo["lat"]?.numberValue), longitude = try #require(photo["lon"]?.numberValue)
        #expect(photo["track"]?.stringValue == "Photo walk" && photo["format"]?.stringValue == "yuyv")
        let path = data + "/photos/" + file
        let jpeg = readFileBytes(path) ?? []
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF, 0xE1]), "the EXIF block right after SOI")
        if access("/usr/bin/djpeg", X_OK) == 0 {
            #expect(TerminalDisplayTests.output("/usr/bin/djpeg -pnm \(path) | head -c 15").hasPrefix("P6\n640 480"), "djpeg reads it")
        } else {
            print("skipped: djpeg is not installed")
        }
        if Self.pillow {
            let script =
                "from PIL import Image; g = Image.open('\(path)').getexif().get_ifd(0x8825); d = lambda v: float(v[0]) + float(v[1]) / 60 + float(v[2]) / 3600; print('%.6f %.6f' % (d(g[2]), d(g[4])))"
            let read = TerminalDisplayTests.output("/usr/bin/python3 -c \"\(script)\"").split(separator: " ").compactMap { Double($0.trimmingCharacters) }
            #expect(
                read.count == 2 && abs((read.first ?? 0) - latitude) < 2e-6 && abs((read.last ?? 0) - longitude) < 2e-6,
                "EXIF \(read) against the fix \(latitude), \(longitude)")
        } else {
            print("skipped: Pillow (python3-pil) is not installed")
        }
        let store = TrackStore(dataDirectory: data)
        let id = try #require(store.list().first?.id)
        #expect(store.photos(id: id).map(\.file) == [file])
        let (_, shown) = end.finish(try end.spawn(["track", "show", id, "--data-dir", data]))
        #expect(shown.contains("photos     1") && shown.contains("photos/" + file), "\(shown)")
        #expect((store.export(id: id, format: "gpx") ?? "").contains("<link href=\"photos/\(file)\">"))
        // With its photos, in a tar; shared, the photo far from the trimmed place keeps its
        // picture but not its position, and one inside it is left out.
        let tar = data + "/walk.tar"
        let (exported, said) = end.finish(try end.spawn(["track", "export", id, "--with-photos", "--out", tar, "--data-dir", data]))
        #expect(exported == 0 && said.contains("1 photos"), "\(said)")
        #expect(TerminalDisplayTests.output("tar -tf \(tar)").contains("photos/" + file))
        let far = "\(fixed(latitude + 1, 4)),\(fixed(longitude, 4))", near = "\(fixed(latitude, 5)),\(fixed(longitude, 5)),200"
        _ = end.finish(try end.spawn(["track", "export", id, "--with-photos", "--private", "--trim", far, "--out", tar, "--data-dir", data]))
        let shared = TerminalDisplayTests.output(
            "tar -xOf \(tar) photos/\(file) | /usr/bin/python3 -c \"import sys, io; from PIL import Image; "
                + "e = Image.open(io.BytesIO(sys.stdin.buffer.read())).getexif(); print('gps', len(e.get_ifd(0x8825)), 'time', e.get(0x132))\"")
        if Self.pillow { #expect(shared.contains("gps 0 time None"), "\(shared)") }
        _ = end.finish(try end.spawn(["track", "export", id, "--with-photos", "--private", "--trim", near, "--out", tar, "--data-dir", data]))
        #expect(!TerminalDisplayTests.output("tar -tf \(tar)").contains("photos/"), "the photo inside the trimmed place is left out")
    }

    /// An MJPEG frame without Huffman tables (as many cameras send) gets the standard ones and
    /// the EXIF block; a frame that is no JPEG is refused.
    @Test func mjpegFramesGetTheirEXIFAndTheirTables() throws {
        let encoded = try #require(JPEGEncoder.encode(width: 16, height: 16, rgb: [UInt8](repeating: 128, count: 16 * 16 * 3)))
        // The same frame without its DHT segment, as an MJPEG camera sends it.
        var stripped: [UInt8] = [], index = 2
        stripped = [0xFF, 0xD8]
        while index + 4 <= encoded.count, encoded[index] == 0xFF, encoded[index + 1] != 0xDA {
            let length = Int(encoded[index + 2]) << 8 | Int(encoded[index + 3])
            if encoded[index + 1] != 0xC4 { stripped += encoded[index..<(index + 2 + length)] }
            index += 2 + length
        }
        stripped += encoded[index...]
        let app1 = EXIFWriter.app1(time: 1_782_028_800, place: nil, direction: nil)
        let fixed = try #require(JPEGEncoder.insertingEXIF(stripped, app1: app1))
        #expect(fixed.starts(with: [0xFF, 0xD8, 0xFF, 0xE1]))
        #expect(stripped.count < encoded.count && fixed.count == encoded.count + 4 + app1.count, "the tables put back: \(fixed.count)")
        if access("/usr/bin/djpeg", X_OK) == 0 {
            let path = "/tmp/lodestone-mjpeg-\(getpid()).jpg"
            defer { unlink(path) }
            #expect(writeFileAtomically(path, fixed))
            #expect(TerminalDisplayTests.output("/usr/bin/djpeg -pnm \(path) | head -c 12").hasPrefix("P6\n16 16"))
        }
        #expect(JPEGEncoder.insertingEXIF([0x89, 0x50, 0x4E, 0x47, 0, 0], app1: app1) == nil)
    }

    /// export-all carries the photos (not those of a private track); forget-all deletes them.
    @Test func backupsCarryPhotosAndForgettingDeletesThem() throws {
        let data = "/tmp/lodestone-photo-backup-\(getpid())"
        removeTree(data)
        defer { removeTree(data) }
        let photos = PhotoStore(dataDirectory: data)
        let jpeg = try #require(JPEGEncoder.encode(width: 16, height: 16, rgb: [UInt8](repeating: 90, count: 16 * 16 * 3)))
        let file = try photos.save(jpeg, time: 1_782_028_800)
        let second = try photos.save(jpeg, time: 1_782_028_800)
        #expect(file == "20260621-080000.jpg" && second == "20260621-080000-2.jpg")
        let archive = PersonalData.archive(dataDirectory: data, now: 1_782_030_000)
        #expect(archive.contents.photos == 2 && String(decoding: archive.bytes, as: UTF8.self).contains("photos/20260621-080000.jpg"))
        _ = PersonalData.forget(dataDirectory: data)
        #expect(photos.list().isEmpty)
    }
}

extension Substring {
    var trimmingCharacters: String { String(filter { !$0.isWhitespace }) }
}
