import Glibc
import LodestoneCore
@testable import LodestoneOutputs
import Testing
@testable import LodestoneEncoding
@testable import LodestoneStorage

/// Deflate decompression against streams made by zlib itself (a dynamic-Huffman block and a
/// stored one, their bytes kept here with the CRC-32 of what they hold), against the device's
/// own fixed-Huffman compressor, and against damaged and hostile input.
@Suite struct InflateTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var high: UInt8?
        for c in hex.utf8 {
            let v: UInt8 = c >= 97 ? c - 87 : c - 48
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
        }
        return out
    }

    /// zlib 1.2 at level 9 (a dynamic-Huffman block): 40 lines of a GTFS stops.txt, 1456 bytes.
    static let dynamic = bytes(
        "65d44b6a23410c06e07d9f22073041afd2e30eb3eb030c868410983801fbfe8ca4ca4a5ed98b1f55e993aaef8fef9fbf9f6f977bfddeae5feffbdfbfebe3f7cff7ed38e1f2e77a7bfbbc7dbcdc1fd78ff717b888be0afabad8eb7293e3c491c04ab8ba6402c4d671d24850254cc93321e0709c3c125c0970894cd0d2384e1909a9445ea34e51083cce35126b9fd23715e0aca123a19550e2ba8707f871da48589fa20699882c729c3e12de1ed0a700617ac448442578adaaa1ea96621315b7eab2ee373ccfc127d67655f6aa435a27e184c59645b4ea88c8aacea4c5b635f2ce40cd07272eb62ea16a750594763879b17d01dc32c3c239019cc0a8bb77ee3b1b56ef9318db988caa8e58cd092732b6f2c29e14d3ca49e164c67676e7da084eefdcbbe94ced4c61da75a832d399b633b5a17854e66981db19b2b17a05517dd174a676560bdbbd675f349d693b731b4a5e2833d399da19412bb384ebace94ced2cc19509f79c054d676ae750e09e69fb4c676ae7e429c3b55833339d29f67d1c2b0396b3e0e9ccedbc3c9d2a53bbcad399dbd9bc67b1b07695a733b73343ef86b9579da74fc5de67933a2bb73afbe2e9cced0cc1d5bb60a4214f67defbccd6bdfbca79f174e6fdc5c84f46bff6481f9ecedcce1e515f0475cd99f274e6bdcf11f5de359f5966a633b77348ef6112faf11f"
    )
    /// zlib at level 0 (a stored block): a routes.txt of 40 bytes.
    static let stored = bytes("012800d7ff726f7574655f69642c726f7574655f73686f72745f6e616d650a52312c50616e746120526865690a")

    @Test func zlibsOwnStreamsInflate() throws {
        let text = try Inflate.raw(Self.dynamic[...], limit: 1 << 20)
        #expect(text.count == 1456 && CRC32.checksum(text) == 0x6cb4_95e7)
        #expect(String(decoding: text.prefix(36), as: UTF8.self) == "stop_id,stop_name,stop_lat,stop_lon\n")
        let small = try Inflate.raw(Self.stored[...], limit: 1 << 20)
        #expect(small.count == 40 && CRC32.checksum(small) == 0x3069_d649 && String(decoding: small, as: UTF8.self).hasSuffix("Panta Rhei\n"))
    }

    /// The PNG writer's compressor (fixed Huffman, matches up to 258 bytes back) and back.
    @Test func theDevicesOwnDeflateRoundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 300, 70_000] {
            var data = (0..<size).map { _ in UInt8.random(in: 0...3, using: &generator) }
            if size > 1000 { data += [UInt8](repeating: 7, count: 5000) }
            let packed = Deflate.zlib(data)
            #expect(try Inflate.zlib(packed, limit: 1 << 20) == data, "\(size) bytes")
        }
    }

    /// A gzip member (what HTTP's `Content-Encoding: gzip` carries) that the system's own gzip
    /// reads back, byte for byte.
    @Test func gzipReadsBackWithTheSystemsGzip() throws {
        let path = "/tmp/lodestone-gzip-\(getpid())"
        defer { unlink(path); unlink(path + ".gz") }
        let text = Array((0..<400).map { "line \($0 % 37): the quick brown fox\n" }.joined().utf8)
        #expect(writeFileAtomically(path, text) && writeFileAtomically(path + ".gz", Deflate.gzip(text)))
        #expect(Deflate.gzip(text).count < text.count / 3)
        let verdict = Shell.output("gzip -t \(path).gz && gzip -dc \(path).gz | cmp - \(path) && echo same")
        #expect(verdict.hasSuffix("same\n"), "\(verdict)")
    }

    /// Damage and bombs are refused with a reason: a cut stream, a flipped byte, a reserved
    /// block type, a distance before the start, output past the limit; random bytes never trap.
    @Test func damageAndBombsAreRefused() {
        #expect(throws: Inflate.Failure.self) { try Inflate.raw(Self.dynamic.prefix(200), limit: 1 << 20) }
        #expect(throws: Inflate.Failure.self) { try Inflate.raw([0x07][...], limit: 100) }  // BFINAL, type 3
        #expect(throws: Inflate.Failure.self) { try Inflate.raw(Self.dynamic[...], limit: 1000) }
        // A fixed block whose first code is a match: distance 1 before any byte.
        #expect(throws: Inflate.Failure.self) { try Inflate.raw([0x03, 0x02, 0x00][...], limit: 100) }
        var flipped = Self.dynamic
        flipped[100] ^= 0x55
        let damaged = try? Inflate.raw(flipped[...], limit: 1 << 20)
        #expect(damaged.map { CRC32.checksum($0) != 0x6cb4_95e7 } ?? true, "a flipped byte never passes for the original")
        var generator = SystemRandomNumberGenerator()
        var refused = 0
        for _ in 0..<3000 {
            let noise = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if (try? Inflate.raw(noise[...], limit: 1 << 16)) == nil { refused += 1 }
        }
        #expect(refused > 2000)
        #expect(throws: Inflate.Failure.self) { try Inflate.zlib([0x78, 0x9C, 0x03, 0x00, 0, 0, 0, 2], limit: 100) }
    }

    /// A zip made by Python's zipfile (two deflated files in a folder, one stored): the names,
    /// each file's bytes checked against its CRC-32, and damage refused.
    static let zip = bytes(
        "504b030414000000080000287a5d37bc54d651000000620000000f000000666565642f6167656e63792e7478744b4c4fcd4bae8ccf4cd14984b0f212735361ecd2a21c18b3243337b52a3f2f95cbc9275807881582933332d3d2d212338a4a74324a4a0a8aadf4f593728af59233745c4b8bf20b52f5a34a8b329333b800504b030414000000080000287a5dd6d5b3e0320000009f0000000f000000666565642f726f757465732e7478742bca2f2d498dcf4cd12902338a33f28b4ae2f3127353a102259505a95c41863a01897925890a4119a9993a265c4574d30400504b030414000000000000287a5d8316dc8c01000000010000000f000000666565642f726561646d652e74787478504b0102140314000000080000287a5d37bc54d651000000620000000f0000000000000000000000800100000000666565642f6167656e63792e747874504b0102140314000000080000287a5dd6d5b3e0320000009f0000000f000000000000000000000080017e000000666565642f726f757465732e747874504b0102140314000000000000287a5d8316dc8c01000000010000000f00000000000000000000008001dd000000666565642f726561646d652e747874504b05060000000003000300b70000000b0100000000"
    )

    @Test func aZipArchiveIsRead() throws {
        let archive = try ZipArchive(Self.zip)
        #expect(archive.entries.map(\.name) == ["feed/agency.txt", "feed/routes.txt", "feed/readme.txt"])
        let agency = try #require(archive.entry("agency.txt"), "found without its folder")
        #expect(String(decoding: try archive.contents(agency, limit: 1 << 20), as: UTF8.self).contains("BLS Schifffahrt,https://bls.ch,Europe/Zurich"))
        let routes = try #require(archive.entry("routes.txt"))
        let routeText = String(decoding: try archive.contents(routes, limit: 1 << 20), as: UTF8.self)
        #expect(routeText.split(separator: "\n").filter { $0 == "R1,Panta Rhei,4" }.count == 3)
        let readme = try #require(archive.entry("readme.txt"))
        #expect(try archive.contents(readme, limit: 10) == [0x78])
        #expect(throws: ZipArchive.Failure.self) { try archive.contents(routes, limit: 10) }
        var damaged = Self.zip
        damaged[60] ^= 0xFF
        #expect(throws: ZipArchive.Failure.self) { try ZipArchive(damaged).contents(agency, limit: 1 << 20) }
        #expect(throws: ZipArchive.Failure.self) { try ZipArchive(Array(Self.zip.prefix(100))) }
        #expect(throws: ZipArchive.Failure.self) { try ZipArchive(Array("not a zip at all, really not".utf8)) }
    }
}
