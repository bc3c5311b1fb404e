import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// A sealed keystore serves only what its key sealed (docs/keystore.md, "Sealed"): someone
/// who can write the file but not read its key can neither plant a plaintext token in it nor
/// change what stands beside a sealed one (expiry, scopes, whose it is) unnoticed.
@Suite("Sealed keystore: nothing unsealed, nothing unbound")
final class SealedKeystoreIntegrityTests: KeystoreDirectoryFixture {
    let directory: String

    init() throws { directory = try Self.privateDirectory("authctl-integrity") }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var fileBytes: Data { (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data() }

    /// The golden state sealed with a new key file; the key file's path.
    func sealedGolden() async throws -> String {
        try await keystore().update { $0 = KeystoreFormatTests.expected }
        let key = directory + "/key"
        try Data(KeystoreKeyFile.newKeyText().utf8).write(to: URL(fileURLWithPath: key))
        chmod(key, 0o600)
        try await keystore().reseal(.keyFile(path: key))
        return key
    }

    /// Rewrites the file's JSON as `change` says (as someone with write access but no key could).
    func tamper(_ change: (inout [String: Any]) throws -> Void) throws {
        var json = try #require(try JSONSerialization.jsonObject(with: fileBytes) as? [String: Any])
        try change(&json)
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: path))
    }

    static func isKeystoreError(_ error: any Error) -> Bool { (error as? AuthError)?.code == .keystoreError }

    /// Changes `users[user].providerData[0]` (or, with `backend`, the user's backend) through `change`.
    static func identity(_ user: Int, _ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any]) throws -> Void {
        { json in
            var users = try #require(json["users"] as? [[String: Any]])
            var identities = try #require(users[user]["providerData"] as? [[String: Any]])
            change(&identities[0])
            users[user]["providerData"] = identities
            json["users"] = users
            json["currentUid"] = users[user]["uid"]
        }
    }

    static func tokens(_ user: Int, _ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any]) throws -> Void {
        identity(user) { identity in
            var tokens = identity["tokens"] as? [String: Any] ?? [:]
            change(&tokens)
            identity["tokens"] = tokens
        }
    }

    static func backend(_ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any]) throws -> Void {
        { json in
            var users = try #require(json["users"] as? [[String: Any]])
            var backend = try #require(users[1]["backend"] as? [String: Any])
            change(&backend)
            users[1]["backend"] = backend
            json["users"] = users
            json["currentUid"] = users[1]["uid"]
        }
    }

    static func pending(_ index: Int, _ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any]) throws -> Void {
        { json in
            var pending = try #require(json["pendingCredentials"] as? [[String: Any]])
            change(&pending[index])
            json["pendingCredentials"] = pending
        }
    }

    static func credential(_ index: Int, _ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any]) throws -> Void {
        pending(index) { pending in
            var credential = pending["credential"] as? [String: Any] ?? [:]
            change(&credential)
            pending["credential"] = credential
        }
    }

    static var planted: [String: Any] {
        [
            "accessToken": "planted-access", "refreshToken": "planted-refresh", "tokenType": "Bearer", "scopes": ["openid"],
            "expiresAt": "2099-01-01T00:00:00Z",
        ]
    }

    /// Plaintext secrets written into a sealed file: refused by every read, with or without the key.
    static var unsealed: [String: (inout [String: Any]) throws -> Void] {
        [
            "a tokens object without sealed": tokens(0) { $0 = planted },
            "a plaintext access token beside the sealed value": tokens(0) { $0["accessToken"] = "planted-access" },
            "a plaintext refresh token beside the sealed value": tokens(0) { $0["refreshToken"] = "planted-refresh" },
            "plaintext scoped tokens beside the sealed value": tokens(0) {
                $0["additionalTokens"] = ["x": ["accessToken": "planted", "tokenType": "Bearer", "scopes": ["x"]]]
            },
            "a tokens object on an identity that had none": identity(1) { $0["tokens"] = planted },
            "a Firebase session without sealed": backend { $0["session"] = planted },
            "a pending credential's tokens without sealed": credential(0) { $0["tokens"] = planted },
            "a pending credential's claims in plaintext": credential(0) { $0["claims"] = ["nonce": "planted"] },
            "a Firebase pending token in plaintext": credential(1) {
                $0["brokered"] = ["projectId": "my-app-golden", "pendingToken": "planted-pending"]
            },
        ]
    }

    @Test(
        "a plaintext token written into a sealed keystore is damage: nothing served, status refuses, nothing changed",
        arguments: unsealed.keys.sorted())
    func plaintextInSealed(_ case: String) async throws {
        let key = try await sealedGolden()
        try tamper(try #require(Self.unsealed[`case`]))
        let before = fileBytes
        let keys = KeystoreKeys(keyFile: key)
        #expect(throws: AuthError.self) { try self.keystore(keys).read() }
        #expect { try self.keystore(keys).read() } throws: { Self.isKeystoreError($0) }
        #expect { try self.keystore().readProfiles() } throws: { Self.isKeystoreError($0) }
        #expect { try self.keystore().sealStatus() } throws: { Self.isKeystoreError($0) }
        if !`case`.contains("pending") {
            #expect { try self.keystore(keys).readCurrentUser() } throws: { Self.isKeystoreError($0) }
            #expect { try self.keystore().readCurrentUserProfile() } throws: { Self.isKeystoreError($0) }
        }
        await #expect { try await self.keystore(keys).update { $0.users[0].displayName = "x" } } throws: { Self.isKeystoreError($0) }
        #expect(fileBytes == before)
    }

    /// What stands readable beside a sealed value, changed: the value no longer opens.
    static var unbound: [String: (inout [String: Any]) throws -> Void] {
        [
            "a later expiry": tokens(0) { $0["expiresAt"] = "2099-01-01T00:00:00Z" },
            "no expiry": tokens(0) { $0["expiresAt"] = nil },
            "other scopes": tokens(0) { $0["scopes"] = ["openid", "admin"] },
            "another token type": tokens(0) { $0["tokenType"] = "DPoP" },
            // The needs-sign-in mark is bound too: added or removed without the key, it is damage.
            "a needs-sign-in mark added": tokens(0) { $0["needsSignInSince"] = "2026-01-01T00:00:00Z" },
            "the needs-sign-in mark removed": tokens(1) { $0["needsSignInSince"] = nil },
            // Where the tokens may be sent is bound too: widened without the key, it is damage.
            "the tokens' egress widened to another server": tokens(0) {
                $0["egress"] = ["issuer": "https://idp.example", "origins": ["https://evil.example:443"]]
            },
            "the identity's federated id": identity(0) { $0["federatedId"] = "someone-else" },
            "the identity's issuer": identity(0) { $0["issuer"] = "https://evil.example" },
            "the Firebase session's expiry": backend { session in
                var tokens = session["session"] as? [String: Any] ?? [:]
                tokens["expiresAt"] = "2099-01-01T00:00:00Z"
                session["session"] = tokens
            },
            "the Firebase emulator the session is sent to": backend { $0["emulator"] = "127.0.0.1:9999" },
            "the Firebase project": backend { $0["projectId"] = "other-project" },
            "a pending credential's expiry": pending(0) { $0["expiresAt"] = "2099-01-01T00:00:00Z" },
            "a pending credential's user": pending(0) { $0["conflictingUID"] = "firebaseLocalIdGolden0000000" },
            "a pending credential's profile": credential(0) { credential in
                var profile = credential["profile"] as? [String: Any] ?? [:]
                profile["email"] = "mallory@example.com"
                credential["profile"] = profile
            },
            "a pending credential's federated id": credential(0) { $0["federatedId"] = "someone-else" },
        ]
    }

    @Test(
        "expiry, scopes and whose the tokens are, changed beside a sealed value: damage, nothing served or changed",
        arguments: unbound.keys.sorted())
    func boundFields(_ case: String) async throws {
        let key = try await sealedGolden()
        try tamper(try #require(Self.unbound[`case`]))
        let before = fileBytes
        let keys = KeystoreKeys(keyFile: key)
        #expect { try self.keystore(keys).read() } throws: { Self.isKeystoreError($0) && "\($0)".contains("damaged") }
        if !`case`.contains("pending") {
            #expect { try self.keystore(keys).readCurrentUser() } throws: { Self.isKeystoreError($0) }
        }
        await #expect { try await self.keystore(keys).update { $0.users[0].displayName = "x" } } throws: { Self.isKeystoreError($0) }
        #expect(fileBytes == before)
    }

    @Test("a whole identity record (tokens and all) moved to another user does not open")
    func identityMoved() async throws {
        let key = try await sealedGolden()
        try tamper { json in
            var users = try #require(json["users"] as? [[String: Any]])
            users[1]["providerData"] = users[0]["providerData"]
            json["users"] = users
            json["currentUid"] = users[1]["uid"]
        }
        #expect { try self.keystore(KeystoreKeys(keyFile: key)).readCurrentUser() } throws: { Self.isKeystoreError($0) }
        #expect { try self.keystore(KeystoreKeys(keyFile: key)).read() } throws: { Self.isKeystoreError($0) }
    }

    @Test("a sealed value in a plaintext keystore is refused as corrupt, never served as sealed")
    func sealedInPlaintext() async throws {
        try await keystore().update { $0 = KeystoreFormatTests.expected }
        try tamper(Self.tokens(0) { $0["sealed"] = "AAAA" })
        #expect { try self.keystore().read() } throws: { Self.isKeystoreError($0) }
        #expect { try self.keystore().readCurrentUser() } throws: { Self.isKeystoreError($0) }
    }
}

extension SealedKeystoreIntegrityTests {
    /// A keystore sealed by the first sealing build (format version 2: values bound to their
    /// place only), with the key file whose bytes are 32…63 (its data key: 0…31).
    static func sealedVersion2() throws -> Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: root.appendingPathComponent("Fixtures/sealed-keystore-v2.json"))
    }

    @Test(
        "a keystore sealed in format 2 still opens with its key, through both reads, and is written as the current format at its next change"
    )
    func version2StillOpens() async throws {
        try Self.sealedVersion2().write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        let key = directory + "/key"
        try Data(Data((32..<64).map { UInt8($0) }).base64EncodedString().utf8).write(to: URL(fileURLWithPath: key))
        chmod(key, 0o600)
        let keys = KeystoreKeys(keyFile: key)
        // The fixture was written before `needsSignInSince` and `egress` existed: it has neither
        // (its tokens may go to their issuer's origin only: `SecretBinding.legacy`).
        var expected = KeystoreFormatTests.expected
        for user in expected.users.indices {
            for identity in expected.users[user].providerData.indices {
                expected.users[user].providerData[identity].tokens?.needsSignInSince = nil
                expected.users[user].providerData[identity].tokens?.egress = nil
            }
        }
        #expect(try keystore(keys).read() == expected)
        #expect(try keystore(keys).readCurrentUser() == AccountState(currentUID: expected.currentUID, users: [expected.users[0]]))
        #expect(try keystore().sealStatus().version == 2)
        let before = fileBytes
        try await keystore(keys).update { _ in }
        #expect(fileBytes == before, "a change of nothing writes nothing")
        try await keystore(keys).update { $0.users[0].displayName = "Ada" }
        #expect(try keystore().sealStatus().version == KeystoreFile.currentVersion)
        var changed = expected
        changed.users[0].displayName = "Ada"
        #expect(try keystore(keys).read() == changed)
        // A version 2 file with a token planted in plaintext is damage as well.
        try Self.sealedVersion2().write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        try tamper(Self.tokens(0) { $0["refreshToken"] = "planted" })
        #expect { try self.keystore(keys).readCurrentUser() } throws: { Self.isKeystoreError($0) }
    }
}

extension SealedKeystoreIntegrityTests {
    @Test("an expiry with a fraction of a second (now + expires_in) is sealed and bound as the file stores it: it opens again")
    func fractionalExpiry() async throws {
        let key = try await sealedGolden()
        let keys = KeystoreKeys(keyFile: key)
        try await keystore(keys).update {
            $0.users[0].providerData[0].tokens?.expiresAt = Date(timeIntervalSince1970: 1_790_000_000.789)
            $0.pendingCredentials[0].expiresAt = Date(timeIntervalSince1970: 1_790_000_000.5)
        }
        let read = try keystore(keys).read()
        #expect(read.users[0].providerData[0].tokens?.refreshToken == "refresh-token-1")
        #expect(try keystore(keys).readCurrentUser().currentUser?.providerData[0].tokens?.refreshToken == "refresh-token-1")
        #expect(read.pendingCredentials.count == 2)
    }
}
