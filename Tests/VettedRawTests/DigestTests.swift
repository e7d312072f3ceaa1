import Foundation
import Testing
import VettedCore
import VettedRaw
import VettedTestSupport

@Suite struct DigestTests {
    /// FIPS 180 examples (NIST's "abc", two-block and million-a messages), checked against Python's hashlib.
    @Test(arguments: [
        (DigestAlgorithm.sha256, "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (.sha256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            .sha256, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (.sha256, String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        (
            .sha384, "abc",
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
        ),
        (
            .sha512, "abc",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
    ])
    func nistVectors(algorithm: DigestAlgorithm, message: String, hex: String) throws {
        let bytes = Array(message.utf8)
        #expect(Hex.encode(algorithm.digest(of: bytes)) == hex)
        let expected = try ExpectedDigest(algorithm, hex: hex.uppercased())
        #expect(expected.matches(algorithm.digest(of: bytes)))
        #expect(try ExpectedDigest(algorithm, base64: Data(expected.bytes).base64EncodedString()) == expected)
        #expect(try ExpectedDigest(algorithm, hexOrBase64: hex) == expected)
    }

    /// Hashing in chunks of any size gives the one-shot digest; files are hashed in chunks too.
    @Test func streamingEqualsOneShot() throws {
        let seed = SeededGenerator.seed(for: "streamingEqualsOneShot")
        var random = SeededGenerator(seed: seed)
        let bytes = (0..<3_000_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let path = try temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for algorithm in DigestAlgorithm.allCases {
            var hasher = StreamingDigest(algorithm)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 0...70_000, using: &random))
                hasher.update(bytes[start..<end])
                start = end
            }
            #expect(hasher.finalize() == algorithm.digest(of: bytes))
            #expect(try algorithm.digest(ofFile: path) == algorithm.digest(of: bytes))
        }
        #expect(thrownError { () throws(VettedError) in _ = try DigestAlgorithm.sha256.digest(ofFile: path, maxBytes: 1_000) }?.code == .inputSizeLimitExceeded)
    }

    @Test func malformedDigestStringsAreClearErrors() {
        let cases: [(() throws(VettedError) -> Void, String)] = [
            ({ () throws(VettedError) in _ = try ExpectedDigest(.sha256, hex: "abc") }, "odd length"),
            ({ () throws(VettedError) in _ = try ExpectedDigest(.sha256, hex: String(repeating: "g", count: 64)) }, "not hex"),
            ({ () throws(VettedError) in _ = try ExpectedDigest(.sha256, hex: String(repeating: "a", count: 62)) }, "31 bytes"),
            ({ () throws(VettedError) in _ = try ExpectedDigest(.sha512, hex: String(repeating: "a", count: 64)) }, "sha256 length for sha512"),
            ({ () throws(VettedError) in _ = try ExpectedDigest(.sha256, base64: "not base64!") }, "bad base64"),
            ({ () throws(VettedError) in _ = try ExpectedDigest(.sha256, base64: "AAAA") }, "3 bytes"),
            ({ () throws(VettedError) in _ = try ExpectedDigest(.sha256, hexOrBase64: " \u{202E}evil") }, "neither"),
        ]
        for (body, label) in cases {
            let error = thrownError(body)
            #expect(error?.code == .malformedDigest, "\(label)")
            #expect(error?.excerpt.map { !$0.text.contains("\u{202E}") } ?? true, "\(label): excerpt escaped")
        }
        let wrongLength = thrownError { () throws(VettedError) in _ = try ExpectedDigest(.sha256, hex: String(repeating: "a", count: 62)) }
        #expect(wrongLength?.message == "a SHA-256 digest has 32 bytes, this one has 31")
    }

    @Test func constantTimeComparison() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([UInt8](), []))
    }
}

/// A file with `bytes`, in the temporary directory.
func temporaryFile(_ bytes: [UInt8]) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-raw-\(UUID().uuidString)")
    try Data(bytes).write(to: url)
    return url.path
}
