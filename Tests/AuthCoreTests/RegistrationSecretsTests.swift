import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// Registration access tokens (RFC 7592) are secrets of the keystore (docs/keystore.md,
/// `registrations`): sealed with the tokens, and the `registrations.json` of earlier builds
/// moved in at the first use.
@Suite("Registration access tokens in the keystore")
final class RegistrationSecretsTests: KeystoreDirectoryFixture {
    let directory: String

    init() throws { directory = try Self.privateDirectory("authctl-registrations") }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var legacyPath: String { directory + "/registrations.json" }
    var fileText: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    func secrets(_ keys: KeystoreKeys = KeystoreKeys()) -> KeystoreRegistrationSecrets {
        KeystoreRegistrationSecrets(keystore: keystore(keys), legacyPath: legacyPath)
    }

    func keyFile() throws -> String {
        let key = directory + "/key"
        try Data(KeystoreKeyFile.newKeyText().utf8).write(to: URL(fileURLWithPath: key))
        chmod(key, 0o600)
        return key
    }

    /// A keystore with a registration, plaintext then sealed, as written (its fields, for the
    /// schema's test), and the sealed one read back.
    static let plaintextFile =
        #"{"registrations": [{"clientSecret": "cs", "clientSecretClientId": "dyn-1", "clientSecretIssuer": "https://as.example", "providerId": "oidc.as-example", "registrationAccessToken": "rat", "registrationClientUri": "https://as.example/register/1"}, {"clientSecret": "cs2", "clientSecretClientId": "dyn-2", "clientSecretIssuer": "https://mcp.example", "providerId": "oidc.mcp"}], "users": [], "version": 1}"#

    static var fieldNames: Set<String> {
        guard let file = try? KeystoreFile.decode(Data(plaintextFile.utf8), path: "registrations"),
            let plaintext = try? file.encoded(), let object = JSONValue.object(from: plaintext),
            let sealing = try? KeystoreSealing(
                dataKey: DataKey.random(), wrappingKey: DataKey.random().symmetricKey, keySource: .keyFile, kdf: nil),
            let sealed = try? file.sealed(with: DataKey.random(), sealing: sealing).encoded(),
            let sealedObject = JSONValue.object(from: sealed)
        else { return [] }
        return KeystoreFormatTests.fieldNames(in: .object(object)).union(KeystoreFormatTests.fieldNames(in: .object(sealedObject)))
    }

    @Test("a plaintext file's registrations read as the domain's, and are written back as they were")
    func format() throws {
        let file = try KeystoreFile.decode(Data(Self.plaintextFile.utf8), path: "registrations")
        #expect(file.state.registrationTokens == ["oidc.as-example": "rat"])
        #expect(
            file.state.registeredClientSecrets == [
                "oidc.as-example": RegisteredClientSecret(secret: "cs", issuer: "https://as.example", clientID: "dyn-1"),
                "oidc.mcp": RegisteredClientSecret(secret: "cs2", issuer: "https://mcp.example", clientID: "dyn-2"),
            ])
        #expect(KeystoreFile(file.state).registrations == file.registrations)
        #expect(
            Self.fieldNames.isSuperset(of: [
                "registrations", "providerId", "registrationAccessToken", "sealed", "clientSecret", "sealedClientSecret",
                "clientSecretIssuer", "clientSecretClientId",
            ]))
    }

    @Test("kept in the keystore, read back, forgotten")
    func roundTrip() async throws {
        try await secrets().store("rat-one", for: "oidc.as-example", clientURI: URL(string: "https://as.example/register/dyn-1"))
        #expect(try await secrets().token(for: "oidc.as-example") == "rat-one")
        #expect(fileText.contains("\"registrations\""))
        #expect(!FileManager.default.fileExists(atPath: legacyPath))
        try await secrets().remove(for: "oidc.as-example")
        #expect(try await secrets().token(for: "oidc.as-example") == nil)
        #expect(!fileText.contains("registrations"))
    }

    @Test("sealed with the keystore: the file holds no token in the clear; the key opens it; unseal puts it back")
    func sealed() async throws {
        try await secrets().store("rat-sealed-secret", for: "oidc.as-example", clientURI: URL(string: "https://as.example/register/dyn-1"))
        let key = try keyFile()
        try await keystore().reseal(.keyFile(path: key))
        #expect(!fileText.contains("rat-sealed-secret"))
        #expect(fileText.contains("\"sealed\""))
        let keys = KeystoreKeys(keyFile: key)
        #expect(try await secrets(keys).token(for: "oidc.as-example") == "rat-sealed-secret")
        // A new one stored in the sealed keystore is sealed too.
        try await secrets(keys).store("rat-second-secret", for: "oidc.other", clientURI: URL(string: "https://as.example/register/dyn-1"))
        #expect(!fileText.contains("rat-second-secret"))
        try await keystore(keys).reseal(nil)
        #expect(fileText.contains("rat-sealed-secret") && fileText.contains("rat-second-secret"))
    }

    @Test("a registered client secret, alone or with a token, is sealed with the keystore, bound to its provider, and forgotten with it")
    func clientSecretSealed() async throws {
        let issued = RegisteredClientSecret(secret: "cs-sealed-secret", issuer: "https://mcp.example", clientID: "dyn-1")
        try await secrets().store(nil, clientSecret: issued, for: "oidc.mcp", clientURI: nil)
        #expect(try await secrets().clientSecret(for: "oidc.mcp") == issued)
        let key = try keyFile()
        try await keystore().reseal(.keyFile(path: key))
        #expect(!fileText.contains("cs-sealed-secret") && fileText.contains("\"sealedClientSecret\""))
        let keys = KeystoreKeys(keyFile: key)
        #expect(try await secrets(keys).clientSecret(for: "oidc.mcp") == issued)
        // Moved to another provider, issuer or client, it does not open; planted in the clear, the keystore is refused.
        let sealedText = fileText
        for change in ["moved", "planted", "issuer", "client"] {
            var json = try #require(try JSONSerialization.jsonObject(with: Data(sealedText.utf8)) as? [String: Any])
            var registrations = try #require(json["registrations"] as? [[String: Any]])
            switch change {
            case "moved": registrations[0]["providerId"] = "oidc.evil"
            case "issuer": registrations[0]["clientSecretIssuer"] = "https://evil.example"
            case "client": registrations[0]["clientSecretClientId"] = "evil-client"
            default: registrations[0]["clientSecret"] = "planted"
            }
            json["registrations"] = registrations
            try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
            #expect(throws: AuthError.self, "\(change)") { _ = try keystore(keys).read() }
        }
        try Data(sealedText.utf8).write(to: URL(fileURLWithPath: path))
        try await secrets(keys).remove(for: "oidc.mcp")
        #expect(!fileText.contains("\"registrations\""))
    }

    @Test("a token planted in the clear in a sealed keystore is refused, as any unsealed secret")
    func plantedRefused() async throws {
        try await secrets().store("rat-one", for: "oidc.as-example", clientURI: URL(string: "https://as.example/register/dyn-1"))
        let key = try keyFile()
        try await keystore().reseal(.keyFile(path: key))
        var json = try #require(try JSONSerialization.jsonObject(with: Data(fileText.utf8)) as? [String: Any])
        json["registrations"] = [["providerId": "oidc.evil", "registrationAccessToken": "planted"]]
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        #expect(throws: AuthError.self) { _ = try keystore(KeystoreKeys(keyFile: key)).read() }
    }

    @Test("a sealed token moved to another provider does not open")
    func movedRefused() async throws {
        try await secrets().store("rat-one", for: "oidc.as-example", clientURI: URL(string: "https://as.example/register/dyn-1"))
        let key = try keyFile()
        try await keystore().reseal(.keyFile(path: key))
        var json = try #require(try JSONSerialization.jsonObject(with: Data(fileText.utf8)) as? [String: Any])
        var registrations = try #require(json["registrations"] as? [[String: Any]])
        registrations[0]["providerId"] = "oidc.evil"
        json["registrations"] = registrations
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        #expect(throws: AuthError.self) { _ = try keystore(KeystoreKeys(keyFile: key)).read() }
    }

    @Test("a sealed token whose registration URL was changed in the file does not open: the URL is bound to it")
    func clientURIBound() async throws {
        try await secrets().store("rat-one", for: "oidc.as-example", clientURI: URL(string: "https://as.example/register/dyn-1"))
        let key = try keyFile()
        try await keystore().reseal(.keyFile(path: key))
        #expect(
            try await secrets(KeystoreKeys(keyFile: key)).clientURI(for: "oidc.as-example")?.absoluteString
                == "https://as.example/register/dyn-1")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(fileText.utf8)) as? [String: Any])
        var registrations = try #require(json["registrations"] as? [[String: Any]])
        registrations[0]["registrationClientUri"] = "https://evil.example/register/dyn-1"
        json["registrations"] = registrations
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        #expect(throws: AuthError.self) { _ = try keystore(KeystoreKeys(keyFile: key)).read() }
    }

    @Test("the registrations.json of earlier builds is moved into the keystore at the first use, then removed")
    func legacyMigrated() async throws {
        try await secrets().store("rat-kept", for: "oidc.kept", clientURI: URL(string: "https://as.example/register/dyn-1"))
        try Data(#"{"oidc.old": "rat-old", "oidc.kept": "rat-stale"}"#.utf8).write(to: URL(fileURLWithPath: legacyPath))
        chmod(legacyPath, 0o600)
        #expect(try await secrets().token(for: "oidc.old") == "rat-old")
        #expect(!FileManager.default.fileExists(atPath: legacyPath))
        #expect(try keystore().read().registrationTokens == ["oidc.old": "rat-old", "oidc.kept": "rat-kept"])
    }

    @Test("a registrations.json that is not a JSON object is a keystore error naming it, and stays")
    func legacyDamaged() async throws {
        try Data("[1]".utf8).write(to: URL(fileURLWithPath: legacyPath))
        chmod(legacyPath, 0o600)
        await #expect(throws: AuthError.self) { _ = try await secrets().token(for: "oidc.old") }
        #expect(FileManager.default.fileExists(atPath: legacyPath))
    }
}
