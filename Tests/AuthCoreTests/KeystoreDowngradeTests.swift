import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// No silent downgrade (docs/keystore.md, "Sealed"): with a key configured, a plaintext
/// keystore holding tokens is refused, and no token is written into plaintext; a keystore
/// this process found sealed is never written back in plaintext but by `keystore unseal`.
@Suite("Sealed keystore: no silent downgrade to plaintext")
final class KeystoreDowngradeTests: KeystoreDirectoryFixture {
    let directory: String

    init() throws { directory = try Self.privateDirectory("authctl-downgrade") }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var fileBytes: Data? { try? Data(contentsOf: URL(fileURLWithPath: path)) }

    func keyFile() throws -> String {
        let key = directory + "/key"
        try Data(KeystoreKeyFile.newKeyText().utf8).write(to: URL(fileURLWithPath: key))
        chmod(key, 0o600)
        return key
    }

    static func isDowngrade(_ error: any Error, naming variable: String) -> Bool {
        guard let error = error as? AuthError, error.code == .keystoreError else { return false }
        return error.message.contains("replaced") && error.message.contains(variable) && "\(error.message)".contains("keystoreSeal")
    }

    @Test(
        "with a key configured, a plaintext keystore holding tokens is refused, naming the danger and the way out; nothing is written",
        arguments: ["AUTHCTL_KEYSTORE_KEY_FILE", "AUTHCTL_KEYSTORE_PASSPHRASE", "AUTHCTL_KEYSTORE_KEYRING"])
    func plaintextRefused(variable: String) async throws {
        try await keystore().update { $0 = KeystoreFormatTests.expected }
        let before = fileBytes
        let keys =
            switch variable {
            case "AUTHCTL_KEYSTORE_KEY_FILE": KeystoreKeys(keyFile: try keyFile())
            case "AUTHCTL_KEYSTORE_PASSPHRASE": KeystoreKeys(passphrase: "correct horse battery")
            default: KeystoreKeys(keyringExpected: true)
            }
        #expect { try self.keystore(keys).read() } throws: { Self.isDowngrade($0, naming: variable) }
        #expect { try self.keystore(keys).readCurrentUser() } throws: { Self.isDowngrade($0, naming: variable) }
        await #expect { try await self.keystore(keys).update { $0.users[0].displayName = "x" } } throws: {
            Self.isDowngrade($0, naming: variable)
        }
        #expect(fileBytes == before)
        // Profiles and the keystore's status still read: they serve no token, and say what it is.
        #expect(try keystore(keys).sealStatus().protection == .plaintext)
        // `keystore seal` is the way out.
        if let file = keys.keyFile { try await keystore(keys).reseal(.keyFile(path: file)) }
    }

    @Test("with a key configured, a sign-in never writes its tokens into a plaintext or missing keystore")
    func noPlaintextWrite() async throws {
        let keys = KeystoreKeys(keyFile: try keyFile())
        await #expect { try await self.keystore(keys).update { $0 = KeystoreFormatTests.expected } } throws: {
            Self.isDowngrade($0, naming: "AUTHCTL_KEYSTORE_KEY_FILE")
        }
        #expect(fileBytes == nil, "no plaintext keystore was created")
        // A plaintext keystore without tokens reads; a change that writes no token is written.
        var signedOut = KeystoreFormatTests.expected
        signedOut.pendingCredentials = []
        for index in signedOut.users.indices {
            signedOut.users[index].backend?.session = nil
            for identity in signedOut.users[index].providerData.indices { signedOut.users[index].providerData[identity].tokens = nil }
        }
        try await keystore().update { $0 = signedOut }
        #expect(try keystore(keys).read() == signedOut)
        try await keystore(keys).update { $0.users[0].displayName = "Ada" }
        await #expect { try await self.keystore(keys).update { $0 = KeystoreFormatTests.expected } } throws: {
            Self.isDowngrade($0, naming: "AUTHCTL_KEYSTORE_KEY_FILE")
        }
        #expect(!String(decoding: fileBytes ?? Data(), as: UTF8.self).contains("refresh-token-1"))
    }

    @Test("a plaintext keystore whose only tokens are a resource grant's is refused too, and none is written into one")
    func resourceGrantTokens() async throws {
        var signedOut = KeystoreFormatTests.expected
        signedOut.pendingCredentials = []
        for index in signedOut.users.indices {
            signedOut.users[index].backend?.session = nil
            for identity in signedOut.users[index].providerData.indices { signedOut.users[index].providerData[identity].tokens = nil }
        }
        var planted = signedOut
        planted.users[0].resourceGrants = [
            ResourceGrant(
                resource: "https://api.example.com/mcp", issuer: "https://as.example.com", providerID: "oidc.as-example-com",
                grantedAt: Date(timeIntervalSince1970: 1_790_000_000),
                tokens: TokenSet(
                    accessToken: "planted-access", expiresAt: Date(timeIntervalSince1970: 1_790_003_600), refreshToken: "planted-refresh",
                    idToken: nil, scopes: ["read"]))
        ]
        try await keystore().update { $0 = planted }
        let before = fileBytes
        let keys = KeystoreKeys(keyFile: try keyFile())
        #expect { try self.keystore(keys).read() } throws: { Self.isDowngrade($0, naming: "AUTHCTL_KEYSTORE_KEY_FILE") }
        #expect(fileBytes == before)
        // Into a plaintext keystore without tokens, a resource grant's tokens are never written.
        try await keystore().update { $0 = signedOut }
        await #expect { try await self.keystore(keys).update { $0 = planted } } throws: {
            Self.isDowngrade($0, naming: "AUTHCTL_KEYSTORE_KEY_FILE")
        }
        #expect(!String(decoding: fileBytes ?? Data(), as: UTF8.self).contains("planted-refresh"))
    }

    @Test("a keystore this process found sealed, swapped for a plaintext one, is never written in plaintext (but by unseal)")
    func inProcess() async throws {
        try await keystore().update { $0 = KeystoreFormatTests.expected }
        let plaintext = try #require(fileBytes)
        let key = try keyFile()
        try await keystore().reseal(.keyFile(path: key))
        _ = try keystore(KeystoreKeys(keyFile: key)).read()
        // Swapped behind this process's back; and nothing configured that would say a key is expected.
        try plaintext.write(to: URL(fileURLWithPath: path))
        await #expect { try await self.keystore().update { $0.users[0].displayName = "x" } } throws: {
            ($0 as? AuthError)?.code == .keystoreError && "\($0)".contains("sealed")
        }
        #expect(fileBytes == plaintext)
        // A sealed keystore unsealed on purpose is written in plaintext afterwards.
        try await keystore().reseal(.keyFile(path: key))
        try await keystore(KeystoreKeys(keyFile: key)).reseal(nil)
        try await keystore().update { $0.users[0].displayName = "Ada" }
        #expect(try keystore().read().users[0].displayName == "Ada")
    }
}
