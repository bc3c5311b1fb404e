import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// A sealed keystore (format version 2, docs/keystore.md): every secret an AES-GCM
/// ciphertext under one data key, bound to its place; profiles readable without the key.
@Suite("Sealed keystore")
final class KeystoreSealingTests: KeystoreDirectoryFixture {
    let directory: String

    init() throws { directory = try Self.privateDirectory("authctl-sealed") }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A new key file `name` (0600, base64 text as `keystore new-key` prints it).
    func keyFile(_ name: String, contents: String = KeystoreKeyFile.newKeyText(), mode: Int = 0o600) throws -> String {
        let file = directory + "/" + name
        try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, mode_t(mode))
        return file
    }

    /// The golden keystore's state: every kind of secret (tokens, per-scope tokens, a pending credential).
    var state: AccountState { KeystoreFormatTests.expected }

    func write(_ state: AccountState) async throws {
        try await keystore().update { $0 = state }
    }

    var fileText: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    func isKeystoreError(_ error: any Error, saying words: String) -> Bool {
        guard let error = error as? AuthError, error.code == .keystoreError else { return false }
        return error.message.contains(words)
    }

    @Test("sealed with a key file: no secret left in the file, version 3, everything reads back with the key")
    func sealsEverySecret() async throws {
        try await write(state)
        let key = try keyFile("k")
        try await keystore().reseal(.keyFile(path: key))
        let text = fileText
        for secret in [
            "access-token-1", "refresh-token-1", "id-token-1", "access-token-scoped", "access-token-2", "refresh-token-2", "id-token-2",
        ] {
            #expect(!text.contains(secret), "\(secret) is in the sealed file")
        }
        #expect(!text.contains("client-golden"), "a pending credential's claims are sealed too")
        #expect(text.contains("\"version\" : 3"))
        #expect(text.contains("\"keySource\" : \"keyFile\""))
        #expect(text.contains("ada@example.com"), "profiles stay readable")
        let sealed = keystore(KeystoreKeys(keyFile: key))
        #expect(try sealed.read() == state)
        #expect(try sealed.readCurrentUser() == AccountState(currentUID: state.currentUID, users: state.currentUser.map { [$0] } ?? []))
    }

    @Test("a DPoP-bound session: its key and rich authorization kept; sealed, the key is a sealed secret and reads back, by both readers")
    func dpopSession() async throws {
        var state = self.state
        let key = DPoPKey.generate(using: SeededRandom(seed: 9))
        let details = try AuthorizationDetails.parse(#"[{"type":"account_information","actions":["read"]}]"#, source: "test")
        try #require(state.users.first?.providerData.first?.tokens != nil)
        state.users[0].providerData[0].tokens?.tokenType = "DPoP"
        state.users[0].providerData[0].tokens?.proofKey = key
        state.users[0].providerData[0].tokens?.authorizationDetails = details
        try await write(state)
        #expect(fileText.contains(key.storedForm) && fileText.contains("account_information"), "plaintext: the key beside the tokens")
        #expect(try keystore().read() == state)
        let file = try keyFile("k")
        try await keystore().reseal(.keyFile(path: file))
        #expect(!fileText.contains(key.storedForm) && !fileText.contains("dpopKey"), "sealed: the key is inside the ciphertext")
        #expect(fileText.contains("account_information") && fileText.contains("\"DPoP\""), "readable: the type and the details")
        let sealed = keystore(KeystoreKeys(keyFile: file))
        #expect(try sealed.read() == state)
        #expect(try sealed.readCurrentUser().currentUser?.providerData.first?.tokens?.proofKey == key, "the token path's reader")
        let withoutKey = try keystore(KeystoreKeys()).readProfiles().users.first?.providerData.first?.tokens
        #expect(withoutKey?.proofKey == nil && withoutKey?.isSealed == true && withoutKey?.isDPoPBound == true)
    }

    @Test("6: a damaged dpopKey is a damaged keystore: refused, never dropped at the next write")
    func damagedKeyRefused() async throws {
        var state = self.state
        state.users[0].providerData[0].tokens?.tokenType = "DPoP"
        state.users[0].providerData[0].tokens?.proofKey = DPoPKey.generate(using: SeededRandom(seed: 5))
        try await write(state)
        let stored = try #require(state.users[0].providerData[0].tokens?.proofKey?.storedForm)
        for damaged in ["zzz", String(repeating: "A", count: 43)] {
            let text = fileText.replacingOccurrences(of: stored, with: damaged)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: AuthError.self) { try keystore().read() }
            #expect(throws: AuthError.self) { try keystore().readCurrentUser() }
            await #expect(throws: AuthError.self) { try await keystore().update { _ in } }
            #expect(fileText == text, "nothing rewritten")
            try Data(text.replacingOccurrences(of: damaged, with: stored).utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    @Test("without the key: the commands that need a token fail saying how to give it; profiles read with tokens marked sealed")
    func withoutTheKey() async throws {
        try await write(state)
        let key = try keyFile("k")
        try await keystore().reseal(.keyFile(path: key))
        // The keystore names its key file; without it (and without the variable) nothing opens it.
        #expect(rename(key, key + ".away") == 0)
        let before = fileText
        #expect { try self.keystore().read() } throws: { self.isKeystoreError($0, saying: "AUTHCTL_KEYSTORE_KEY_FILE") }
        #expect { try self.keystore().readCurrentUser() } throws: { self.isKeystoreError($0, saying: "AUTHCTL_KEYSTORE_KEY_FILE") }
        await #expect { try await self.keystore().update { $0.currentUID = nil } } throws: {
            self.isKeystoreError($0, saying: "AUTHCTL_KEYSTORE_KEY_FILE")
        }
        let profiles = try keystore().readProfiles()
        #expect(profiles.users.map(\.email) == state.users.map(\.email))
        let tokens = try #require(profiles.currentUser?.providerData.first?.tokens)
        #expect(tokens.isSealed && tokens.accessToken == nil && tokens.refreshToken == nil && tokens.expiresAt != nil)
        #expect(try keystore().readCurrentUserProfile().currentUser?.providerData.first?.tokens?.isSealed == true)
        #expect(try keystore().sealStatus().protection == .keyFile)
        #expect(fileText == before, "nothing was rewritten")
    }

    @Test("a wrong key file is refused as wrong, and nothing is rewritten")
    func wrongKey() async throws {
        try await write(state)
        try await keystore().reseal(.keyFile(path: try keyFile("k")))
        let before = fileText
        let wrong = keystore(KeystoreKeys(keyFile: try keyFile("other")))
        #expect { try wrong.read() } throws: { self.isKeystoreError($0, saying: "not the key it was sealed with") }
        #expect { try wrong.readCurrentUser() } throws: { self.isKeystoreError($0, saying: "not the key it was sealed with") }
        await #expect { try await wrong.update { $0.currentUID = nil } } throws: { self.isKeystoreError($0, saying: "not the key") }
        await #expect { try await wrong.reseal(nil) } throws: { self.isKeystoreError($0, saying: "not the key") }
        #expect(fileText == before)
    }

    @Test("a tampered ciphertext does not open: the keystore is damaged, never rewritten")
    func tampered() async throws {
        try await write(state)
        let key = try keyFile("k")
        try await keystore().reseal(.keyFile(path: key))
        var json = try #require(try JSONSerialization.jsonObject(with: Data(fileText.utf8)) as? [String: Any])
        var users = try #require(json["users"] as? [[String: Any]])
        var identities = try #require(users[0]["providerData"] as? [[String: Any]])
        var tokens = try #require(identities[0]["tokens"] as? [String: Any])
        let encoded = try #require(tokens["sealed"] as? String)
        var bytes = try #require(Data(base64Encoded: encoded))
        bytes[bytes.count / 2] ^= 0x01
        tokens["sealed"] = bytes.base64EncodedString()
        identities[0]["tokens"] = tokens
        users[0]["providerData"] = identities
        json["users"] = users
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        let before = fileText
        let sealed = keystore(KeystoreKeys(keyFile: key))
        #expect { try sealed.read() } throws: { self.isKeystoreError($0, saying: "damaged") }
        #expect { try sealed.readCurrentUser() } throws: { self.isKeystoreError($0, saying: "damaged") }
        await #expect { try await sealed.update { $0.currentUID = nil } } throws: { self.isKeystoreError($0, saying: "damaged") }
        #expect(fileText == before)
    }

    @Test("a ciphertext moved to another record, another provider or another identity does not open")
    func moved() throws {
        let key = DataKey.random()
        let identity = KeystoreRecord.Identity(
            providerId: "oidc.a", issuer: "https://a.example", federatedId: "sub-1",
            profile: KeystoreRecord.Profile(emailVerified: false), linkedAt: Date(timeIntervalSince1970: 0))
        func moved(_ change: (inout KeystoreRecord.Identity) -> Void) -> KeystoreRecord.Identity {
            var other = identity
            change(&other)
            return other
        }
        let sealed = try key.seal(Data("refresh".utf8), place: .identityTokens(uid: "u1", identity: identity))
        #expect(key.open(sealed, place: .identityTokens(uid: "u1", identity: identity)) == Data("refresh".utf8))
        #expect(key.open(sealed, place: .identityTokens(uid: "u2", identity: identity)) == nil)
        #expect(key.open(sealed, place: .identityTokens(uid: "u1", identity: moved { $0.providerId = "oidc.b" })) == nil)
        #expect(key.open(sealed, place: .identityTokens(uid: "u1", identity: moved { $0.issuer = "https://b.example" })) == nil)
        #expect(key.open(sealed, place: .identityTokens(uid: "u1", identity: moved { $0.federatedId = "sub-2" })) == nil)
        #expect(key.open(sealed, place: SealedPlace.Version2.identityTokens(uid: "u1", providerID: "oidc.a")) == nil)
        // Length-prefixed parts: "u1|x" + "y" is not "u1" + "x|y".
        #expect(SealedPlace(parts: ["ab", "c"]).associatedData != SealedPlace(parts: ["a", "bc"]).associatedData)
        #expect(DataKey.random().open(sealed, place: .identityTokens(uid: "u1", identity: identity)) == nil)
    }

    @Test("a ciphertext moved between two users in the file makes the keystore damaged")
    func movedInFile() async throws {
        var two = state
        var other = try #require(two.users.first)
        other.uid = "uid-other"
        two.users = [two.users[0], other]
        try await write(two)
        let key = try keyFile("k")
        try await keystore().reseal(.keyFile(path: key))
        var json = try #require(try JSONSerialization.jsonObject(with: Data(fileText.utf8)) as? [String: Any])
        var users = try #require(json["users"] as? [[String: Any]])
        let first = try #require((users[0]["providerData"] as? [[String: Any]])?[0]["tokens"])
        var identities = try #require(users[1]["providerData"] as? [[String: Any]])
        identities[0]["tokens"] = first
        users[1]["providerData"] = identities
        json["users"] = users
        json["currentUid"] = "uid-other"
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        let sealed = keystore(KeystoreKeys(keyFile: key))
        #expect { try sealed.read() } throws: { self.isKeystoreError($0, saying: "damaged") }
        #expect { try sealed.readCurrentUser() } throws: { self.isKeystoreError($0, saying: "damaged") }
    }

    @Test("a passphrase: sealed with scrypt, opened with the same passphrase, refused with another")
    func passphrase() async throws {
        try await write(state)
        try await keystore().reseal(.passphrase("correct horse", cost: 10))
        #expect(fileText.contains("\"algorithm\" : \"scrypt\""))
        #expect(try keystore(KeystoreKeys(passphrase: "correct horse")).read() == state)
        #expect { try self.keystore(KeystoreKeys(passphrase: "wrong")).read() } throws: { self.isKeystoreError($0, saying: "not the key") }
        #expect { try self.keystore().read() } throws: { self.isKeystoreError($0, saying: "AUTHCTL_KEYSTORE_PASSPHRASE") }
        // A prompt is used only when no passphrase was given.
        #expect(try keystore(KeystoreKeys(askPassphrase: { _ in "correct horse" })).read() == state)
    }

    @Test(
        "scrypt parameters out of bounds are refused before any derivation",
        arguments: [
            (1 << 21, 8, 1), (1 << 20, 8, 1), (1 << 15, 64, 1), (1 << 15, 8, 64), (1000, 8, 1), (1 << 15, 0, 1), (512, 8, 1),
            (Int.max, Int.max, Int.max), (1 << 18, 8, 16),
        ])
    func kdfBounds(parameters: (Int, Int, Int)) async throws {
        try await write(state)
        try await keystore().reseal(.passphrase("a passphrase 1", cost: 10))
        var json = try #require(try JSONSerialization.jsonObject(with: Data(fileText.utf8)) as? [String: Any])
        var sealing = try #require(json["sealing"] as? [String: Any])
        var kdf = try #require(sealing["kdf"] as? [String: Any])
        (kdf["n"], kdf["r"], kdf["p"]) = (parameters.0, parameters.1, parameters.2)
        sealing["kdf"] = kdf
        json["sealing"] = sealing
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        let started = Date()
        #expect { try self.keystore(KeystoreKeys(passphrase: "a passphrase 1")).read() } throws: {
            self.isKeystoreError($0, saying: "out of bounds")
        }
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test("the standard scrypt parameters are within bounds, and a short salt is not")
    func standardParameters() {
        #expect(KeystoreSealing.Scrypt.standard(salt: Data(count: 16)).checkedSalt != nil)
        #expect(KeystoreSealing.Scrypt.standard(salt: Data(count: 16)).n == 1 << 15, "what keystore seal writes: 32 MiB")
        #expect(KeystoreSealing.Scrypt.standard(salt: Data(count: 16), cost: 9).n == 1 << 10, "never below what a file may hold")
        #expect(KeystoreSealing.Scrypt.standard(salt: Data(count: 4)).checkedSalt == nil)
        var other = KeystoreSealing.Scrypt.standard(salt: Data(count: 16))
        other.algorithm = "argon2"
        #expect(other.checkedSalt == nil)
    }

    @Test("unseal writes a plaintext version 1 again; rekey changes the key without signing anyone out")
    func migrationsBothWays() async throws {
        try await write(state)
        let plaintext = fileText
        let first = try keyFile("k1")
        let second = try keyFile("k2")
        try await keystore().reseal(.keyFile(path: first))
        let sealedOnce = fileText
        try await keystore(KeystoreKeys(keyFile: first)).reseal(.keyFile(path: second))
        #expect(fileText != sealedOnce)
        #expect { try self.keystore(KeystoreKeys(keyFile: first)).read() } throws: { self.isKeystoreError($0, saying: "not the key") }
        #expect(try keystore(KeystoreKeys(keyFile: second)).read() == state)
        try await keystore(KeystoreKeys(keyFile: second)).reseal(nil)
        #expect(fileText == plaintext, "unsealed, the file is the plaintext version 1 it was")
        #expect(try keystore().sealStatus().protection == .plaintext)
    }

    @Test("a write to a sealed keystore keeps it sealed, and a write that changes nothing writes nothing")
    func writesStaySealed() async throws {
        try await write(state)
        let key = try keyFile("k")
        try await keystore().reseal(.keyFile(path: key))
        let sealed = keystore(KeystoreKeys(keyFile: key))
        let before = fileText
        try await sealed.update { _ in }
        #expect(fileText == before)
        try await sealed.update { $0.users[0].displayName = "Ada" }
        #expect(!fileText.contains("refresh-token-1") && fileText.contains("\"version\" : 3"))
        #expect(try sealed.read().users[0].displayName == "Ada")
        #expect(try sealed.read().users[0].providerData[0].tokens?.refreshToken == "refresh-token-1")
        // A Firebase user's session (docs/firebase.md) is sealed the same way, and opens.
        #expect(!fileText.contains("firebase-refresh-token") && !fileText.contains("firebase-id-token"))
        #expect(try sealed.read().users[1].backend?.session?.refreshToken == "firebase-refresh-token")
        // And a Firebase pending credential's pendingToken.
        #expect(!fileText.contains("firebase-pending-token"))
        #expect(try sealed.read().pendingCredentials[1].credential.brokered?.pendingToken == "firebase-pending-token")
    }

    @Test("key files are checked like secret files and read bounded", arguments: ["mode", "size", "text", "symlink"])
    func keyFileChecks(problem: String) async throws {
        try await write(state)
        let key: String
        switch problem {
        case "mode": key = try keyFile("k", mode: 0o644)
        case "size": key = try keyFile("k", contents: String(repeating: "A", count: 100_000))
        case "text": key = try keyFile("k", contents: "not a key\n")
        default:
            let target = try keyFile("target")
            key = directory + "/link"
            try FileManager.default.createSymbolicLink(atPath: key, withDestinationPath: target)
        }
        await #expect { try await self.keystore().reseal(.keyFile(path: key)) } throws: { ($0 as? AuthError)?.code == .keystoreError }
        #expect(!fileText.contains("\"version\" : 3"), "nothing was sealed")
        #expect(try keystore().read() == state)
    }

    @Test("a raw 32-byte key file works as well as its base64")
    func rawKeyFile() async throws {
        try await write(state)
        let raw = Data((0..<32).map { UInt8($0) })
        let file = directory + "/raw"
        try raw.write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        try await keystore().reseal(.keyFile(path: file))
        let text = try keyFile("text", contents: raw.base64EncodedString() + "\n")
        #expect(try keystore(KeystoreKeys(keyFile: text)).read() == state)
    }

    @Test("a version 2 file without sealing, or a version 1 file with it, is refused as corrupt")
    func versionAndSealingAgree() async throws {
        try await write(state)
        let text = fileText.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 2")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect { try self.keystore().read() } throws: { self.isKeystoreError($0, saying: "do not agree") }
        #expect { try self.keystore().readCurrentUser() } throws: { self.isKeystoreError($0, saying: "do not agree") }
    }

    @Test("users export never exports a secret, sealed or not")
    func exportHasNoSecrets() async throws {
        try await write(state)
        for format in UserExport.Format.allCases {
            let text = String(decoding: try UserExport.export(try keystore().read(), format: format), as: UTF8.self)
            #expect(!text.contains("refresh-token-1") && !text.contains("access-token-1") && !text.contains("id-token-1"))
        }
    }
}
