import LodestoneCore
import Testing

/// SHA-256 against the FIPS 180-4 examples (NIST's "abc", the two-block message, a million
/// 'a'), whole and fed in uneven pieces.
@Suite struct SHA256Tests {
    @Test func matchesTheStandardsExamples() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func piecesGiveTheSameDigestAsTheWhole() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for cut in [1, 55, 56, 63, 64, 65, 127, 500] {
            var hasher = SHA256()
            hasher.update(Array(message.prefix(cut)))
            hasher.update(message.dropFirst(cut))
            #expect(SHA256.hexText(hasher.finish()) == SHA256.hex(message), "cut at \(cut)")
        }
    }
}
