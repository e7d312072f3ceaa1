import Foundation
import Testing
import VettedCore
import VettedRaw
import VettedTestSupport

private func hex(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }

@Suite struct StandardVectorTests {
    /// RFC 8032 section 7.1, tests 1 to 3 (checked against Python's cryptography).
    @Test(arguments: [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        (
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
        (
            "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
        ),
    ])
    func rfc8032Ed25519(secret: String, publicKey: String, message: String, signature: String) throws {
        let key = try SigningKey(.ed25519, rawRepresentation: hex(secret))
        #expect(key.verificationKey.rawRepresentation == hex(publicKey))
        #expect(try key.signature(for: hex(message)) == hex(signature))
        let verifier = try VerificationKey(.ed25519, rawRepresentation: hex(publicKey))
        #expect(verifier.isValidSignature(hex(signature), for: hex(message)))
        #expect(!verifier.isValidSignature(hex(signature), for: hex(message) + [0]))
    }

    /// RFC 4231 test cases 1, 4 and 6 (keys of 20, 25 and 131 bytes).
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array(1...25), [UInt8](repeating: 0xcd, count: 50), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (
            [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
    ])
    func rfc4231HMACSHA256(key: [UInt8], data: [UInt8], tag: String) throws {
        let signer = try SigningKey(.hmacSHA256, rawRepresentation: key)
        #expect(try signer.signature(for: data) == hex(tag))
        #expect(signer.verificationKey.isValidSignature(hex(tag), for: data))
    }

    /// RFC 4231 test case 2 uses the 4-byte key "Jefe": Vetted refuses secrets under 16 bytes.
    @Test func shortHMACSecretsAreRefused() {
        let error = thrownError { () throws(VettedError) in _ = try VerificationKey(.hmacSHA256, rawRepresentation: Array("Jefe".utf8)) }
        #expect(error?.code == .malformedKey)
        #expect(error?.message == "not a valid hmac-sha256 public key")
    }
}

@Suite struct SignatureFormatTests {
    static let payload = Array(#"[{"id":1,"name":"Guitar","tags":["music"]}]"#.utf8)

    static func keys() throws -> [SigningKey] {
        try [
            SigningKey.generate(.ed25519, keyID: KeyID("ed-2026")),
            SigningKey.generate(.p256, keyID: KeyID("p256-2026")),
            SigningKey.generate(.hmacSHA256, keyID: KeyID("hmac-2026")),
        ]
    }

    @Test func envelopesAndDetachedSignaturesRoundTrip() throws {
        for key in try Self.keys() {
            let trusted = try TrustedKeys([key.verificationKey])
            let envelope = try Envelope.seal(Self.payload, with: key)
            #expect(envelope.count == 16 + key.keyID.rawValue.utf8.count + Self.payload.count + key.algorithm.signatureLength)
            let opened = try Envelope.open(envelope, trusting: trusted)
            #expect(opened.bytes == Self.payload)
            #expect(opened.report.signedBy == key.keyID)

            let detached = try DetachedSignature.sign(Self.payload, with: key)
            #expect(try DetachedSignature(parsing: detached.bytes) == detached)
            #expect(try DetachedSignature(base64: detached.base64) == detached)
            #expect(try detached.verify(Self.payload, trusting: trusted) == key.keyID)
        }
    }

    /// Every single-bit flip anywhere in an envelope is rejected, with the code of the field it hit.
    @Test func everyBitFlipOfAnEnvelopeIsRejected() throws {
        for key in try Self.keys() {
            let trusted = try TrustedKeys([key.verificationKey])
            let envelope = try Envelope.seal(Self.payload, with: key)
            let idLength = key.keyID.rawValue.utf8.count
            let payloadStart = 15 + idLength
            let signatureStart = payloadStart + Self.payload.count + 1
            for index in envelope.indices {
                for bit in 0..<8 {
                    var flipped = envelope
                    flipped[index] ^= 1 << bit
                    let error = thrownError { () throws(VettedError) in _ = try Envelope.open(flipped, trusting: trusted) }
                    let expected: Set<VettedError.Code> =
                        switch index {
                        case 0..<4: [.malformedEnvelope]
                        case 4: [.unsupportedVersion]
                        case 5: [.unsupportedAlgorithm, .malformedEnvelope]  // a known algorithm with the other signature length
                        case 6: [.malformedEnvelope, .invalidKeyID, .unknownKeyID]
                        case 7..<(7 + idLength): (0x21...0x7E).contains(flipped[index]) ? [.unknownKeyID] : [.invalidKeyID]
                        case (7 + idLength)..<payloadStart: [.malformedEnvelope]
                        case payloadStart..<(signatureStart - 1): [.signatureMismatch]
                        case signatureStart - 1: [.malformedEnvelope]
                        default: [.signatureMismatch]
                        }
                    #expect(error.map { expected.contains($0.code) } == true, "\(key.algorithm) byte \(index) bit \(bit): \(String(describing: error))")
                }
            }
        }
    }

    /// Every bit flip of the payload, of the signature and of the key id of a detached signature is rejected.
    @Test func everyBitFlipOfADetachedSignatureOrItsPayloadIsRejected() throws {
        for key in try Self.keys() {
            let trusted = try TrustedKeys([key.verificationKey])
            let signature = try DetachedSignature.sign(Self.payload, with: key)
            for index in Self.payload.indices {
                for bit in 0..<8 {
                    var payload = Self.payload
                    payload[index] ^= 1 << bit
                    let error = thrownError { () throws(VettedError) in _ = try signature.verify(payload, trusting: trusted) }
                    #expect(error?.code == .signatureMismatch)
                }
            }
            let bytes = signature.bytes
            let idLength = key.keyID.rawValue.utf8.count
            for index in bytes.indices {
                for bit in 0..<8 {
                    var flipped = bytes
                    flipped[index] ^= 1 << bit
                    let error = thrownError { () throws(VettedError) in
                        _ = try DetachedSignature(parsing: flipped).verify(Self.payload, trusting: trusted)
                    }
                    let expected: Set<VettedError.Code> =
                        switch index {
                        case 0..<4: [.malformedSignature]
                        case 4: [.unsupportedVersion]
                        case 5: [.unsupportedAlgorithm, .malformedSignature]
                        case 6: [.malformedSignature, .invalidKeyID]
                        case 7..<(7 + idLength): (0x21...0x7E).contains(flipped[index]) ? [.unknownKeyID] : [.invalidKeyID]
                        case (7 + idLength)..<(15 + idLength): [.payloadLengthMismatch]
                        case 15 + idLength: [.malformedSignature]
                        default: [.signatureMismatch]
                        }
                    #expect(error.map { expected.contains($0.code) } == true, "\(key.algorithm) byte \(index) bit \(bit): \(String(describing: error))")
                }
            }
        }
    }

    @Test func truncatedAndExtendedInputIsRejected() throws {
        let key = try Self.keys()[0]
        let trusted = try TrustedKeys([key.verificationKey])
        let envelope = try Envelope.seal(Self.payload, with: key)
        for length in 0..<envelope.count {
            let error = thrownError { () throws(VettedError) in _ = try Envelope.open(Array(envelope.prefix(length)), trusting: trusted) }
            #expect(error?.code == .malformedEnvelope, "prefix \(length)")
        }
        let appended = thrownError { () throws(VettedError) in _ = try Envelope.open(envelope + [0], trusting: trusted) }
        #expect(appended == VettedError(code: .malformedEnvelope, offset: envelope.count))
        #expect(appended?.message == "1 bytes follow the end of the envelope")

        let signature = try DetachedSignature.sign(Self.payload, with: key)
        for payload in [Array(Self.payload.dropLast()), Self.payload + [0x20], []] {
            let error = thrownError { () throws(VettedError) in _ = try signature.verify(payload, trusting: trusted) }
            #expect(error?.code == .payloadLengthMismatch)
        }
        for length in 0..<signature.bytes.count {
            let error = thrownError { () throws(VettedError) in _ = try DetachedSignature(parsing: Array(signature.bytes.prefix(length))) }
            #expect(error?.code == .malformedSignature, "prefix \(length)")
        }
    }

    /// The trusted key decides the algorithm: an HMAC "signature" computed with a
    /// public key as the secret is refused for the id of an Ed25519 key.
    @Test func algorithmConfusionIsRefused() throws {
        let ed = SigningKey.generate(.ed25519, keyID: try KeyID("server"))
        let forger = try SigningKey(.hmacSHA256, rawRepresentation: ed.verificationKey.rawRepresentation, keyID: KeyID("server"))
        let forged = try Envelope.seal(Array("{}".utf8), with: forger)
        let error = thrownError { () throws(VettedError) in _ = try Envelope.open(forged, trusting: TrustedKeys([ed.verificationKey])) }
        #expect(error?.code == .algorithmMismatch)
        #expect(error?.message == "the signature says hmac-sha256, the trusted key server is ed25519")
    }

    @Test func keyRotation() throws {
        let old = SigningKey.generate(.ed25519, keyID: try KeyID("2025"))
        let new = SigningKey.generate(.ed25519, keyID: try KeyID("2026"))
        let both = try TrustedKeys([old.verificationKey, new.verificationKey])
        for key in [old, new] {
            #expect(try Envelope.open(Envelope.seal(Self.payload, with: key), trusting: both).report.signedBy == key.keyID)
        }
        let onlyNew = try TrustedKeys([new.verificationKey])
        let error = thrownError { () throws(VettedError) in _ = try Envelope.open(Envelope.seal(Self.payload, with: old), trusting: onlyNew) }
        #expect(error?.code == .unknownKeyID)
        #expect(error?.message == "no trusted key has the id 2025")
        let duplicate = thrownError { () throws(VettedError) in _ = try TrustedKeys([old.verificationKey, old.verificationKey]) }
        #expect(duplicate?.code == .duplicateKeyID)
    }

    @Test func keyFilesAreWrittenOwnerOnlyAndNeverOverwritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let privatePath = folder.appendingPathComponent("k.key").path
        let publicPath = folder.appendingPathComponent("k.pub").path
        let key = SigningKey.generate(.ed25519)
        try key.writeKeyFiles(privateKeyPath: privatePath, publicKeyPath: publicPath)
        #expect((try FileManager.default.attributesOfItem(atPath: privatePath)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: publicPath)[.posixPermissions] as? NSNumber)?.intValue == 0o644)
        #expect(try SigningKey(fileText: String(contentsOfFile: privatePath, encoding: .utf8)).rawRepresentation == key.rawRepresentation)
        let again = thrownError { () throws(VettedError) in
            try SigningKey.generate(.ed25519).writeKeyFiles(privateKeyPath: privatePath, publicKeyPath: publicPath)
        }
        #expect(again?.code == .keyFileExists)
        #expect(again?.message == "\(privatePath) exists; not overwriting it")
        #expect(try SigningKey(fileText: String(contentsOfFile: privatePath, encoding: .utf8)).rawRepresentation == key.rawRepresentation)
        let missingFolder = thrownError { () throws(VettedError) in
            try key.writeKeyFiles(privateKeyPath: folder.appendingPathComponent("no/such.key").path, publicKeyPath: publicPath + "2")
        }
        #expect(missingFolder?.code == .unwritableKeyFile)
        // An HMAC secret is one file: no public half is written.
        let secretPath = folder.appendingPathComponent("s.key").path
        try SigningKey.generate(.hmacSHA256).writeKeyFiles(privateKeyPath: secretPath, publicKeyPath: publicPath)
        #expect(FileManager.default.fileExists(atPath: secretPath))
    }

    @Test func keyFilesRoundTripAndMalformedOnesAreTypedErrors() throws {
        for key in try Self.keys() {
            let restored = try SigningKey(fileText: key.fileText)
            #expect(restored.rawRepresentation == key.rawRepresentation && restored.keyID == key.keyID)
            let verifier = try VerificationKey(fileText: key.verificationKey.fileText)
            #expect(verifier.rawRepresentation == key.verificationKey.rawRepresentation)
        }
        let ed = SigningKey.generate(.ed25519)
        #expect(ed.keyID.rawValue.count == 16)
        #expect(ed.verificationKey.keyID == ed.keyID)
        let secret = Data(ed.rawRepresentation).base64EncodedString()
        let cases: [(String, VettedError.Code)] = [
            ("", .malformedKey),
            ("vetted-private-key-v1 ed25519 id", .malformedKey),
            ("vetted-public-key-v1 ed25519 id \(secret)", .malformedKey),  // a private key where a public one... is the wrong kind
            ("vetted-private-key-v1 rsa id \(secret)", .unsupportedAlgorithm),
            ("vetted-private-key-v1 ed25519 \u{7F}bad \(secret)", .invalidKeyID),
            ("vetted-private-key-v1 ed25519 id ***", .malformedKey),
            ("vetted-private-key-v1 ed25519 id AAAA", .malformedKey),
            ("vetted-secret-key-v1 ed25519 id \(secret)", .malformedKey),
            (String(repeating: "A", count: 10_000), .malformedKey),
        ]
        for (text, code) in cases {
            let error = thrownError { () throws(VettedError) in _ = try SigningKey(fileText: text) }
            #expect(error?.code == code, "\(text.prefix(40))")
            #expect(error.map { !$0.message.contains(secret) && !$0.description.contains(secret) } == true, "key material in a message")
        }
        let ring = try TrustedKeys(
            fileText: "# keys\n\n" + SigningKey.generate(.ed25519).verificationKey.fileText + SigningKey.generate(.p256).verificationKey.fileText)
        #expect(ring.keyIDs.count == 2)
        let badRing = thrownError { () throws(VettedError) in _ = try TrustedKeys(fileText: "# keys\nnonsense\n") }
        #expect(badRing?.message.hasPrefix("line 2: ") == true)
    }
}
