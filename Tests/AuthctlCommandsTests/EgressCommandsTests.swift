import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Issue 35 A, as an attacker who may edit config.json tries it: a person signed in at one
/// provider; then only config.json changes, and the next `token` refresh, `status --check` or
/// `signout --revoke` must send nothing to the server it now names (a second fake provider
/// that counts what it receives), and say what changed.
@Suite("Egress binding: config.json cannot send stored secrets elsewhere", .serialized)
final class EgressCommandsTests {
    let victim: FakeIdentityProvider
    let attacker: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws {
        victim = try FakeIdentityProvider()
        attacker = try FakeIdentityProvider()
        victim.update { $0.introspectionSupported = true }
        attacker.update { $0.introspectionSupported = true }
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func signIn() async throws {
        try await authctl.addFakeProvider(victim)
        let login = try await authctl.run(["login", "oidc.fake", "--timeout", "120"])
        #expect(login.status == 0, "\(login.stderr)")
    }

    /// config.json with `change` made to its text (what an attacker with write access does).
    func editConfig(_ change: (String) -> String) throws {
        let text = try String(contentsOfFile: authctl.configPath, encoding: .utf8)
        let changed = change(text)
        #expect(changed != text)
        try write(config: changed)
    }

    /// config.json replaced, private as authctl writes it.
    func write(config text: String) throws {
        try FileManager.default.removeItem(atPath: authctl.configPath)
        #expect(
            FileManager.default.createFile(atPath: authctl.configPath, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
    }

    /// Seals the keystore with a new key file; its path.
    func sealWithKeyFile() async throws -> String {
        let keyFile = authctl.home + "/keystore.key"
        let made = try await authctl.run(["keystore", "new-key"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(FileManager.default.createFile(atPath: keyFile, contents: Data(made.stdout.utf8), attributes: [.posixPermissions: 0o600]))
        let sealed = try await authctl.run(["keystore", "seal", "--key-file", keyFile])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        return keyFile
    }

    /// Every request the attacker's server received that could carry a secret.
    var attackerReceived: Int { ["token", "refresh", "revoke", "introspect", "userinfo", "device"].map(attacker.count).reduce(0, +) }

    @Test("issuer changed to another server: token --force-refresh, status --check and signout --revoke send it nothing (exit 7)")
    func issuerChanged() async throws {
        try await signIn()
        let before = authctl.keystoreBytes()
        try editConfig { $0.replacingOccurrences(of: victim.issuer, with: attacker.issuer) }
        for arguments in [["token", "--force-refresh"], ["status", "--check"]] {
            let result = try await authctl.run(arguments)
            #expect(result.status == 7, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("login oidc.fake"), "\(result.stderr)")
        }
        let signout = try await authctl.run(["signout", "--revoke"])
        #expect(!signout.stderr.contains("revoked"), "\(signout.stderr)")
        #expect(attackerReceived == 0)
        #expect(victim.count("refresh") == 0)
        _ = before
    }

    @Test("metadataUrl naming a document that keeps the issuer but names another token endpoint: the refresh token stays home")
    func metadataMoved() async throws {
        try await signIn()
        attacker.update { $0.discoveryIssuer = self.victim.issuer }
        let before = authctl.keystoreBytes()
        try editConfig {
            $0.replacingOccurrences(
                of: "\"issuer\"", with: "\"metadataUrl\": \"\(attacker.issuer)/.well-known/openid-configuration\", \"issuer\"")
        }
        let result = try await authctl.run(["token", "--force-refresh"])
        #expect(result.status == 7, "\(result.stderr)")
        let moved = try #require(URL(string: attacker.issuer).flatMap(Origin.init)).description
        #expect(result.stderr.contains(moved) && result.stderr.contains("Nothing was sent"), "\(result.stderr)")
        #expect(attackerReceived == 0)
        #expect(authctl.keystoreBytes() == before)
    }

    @Test(
        "config.json may not name the keystore's own secrets as a client secret: refused when read, nothing sent",
        arguments: ["AUTHCTL_KEYSTORE_PASSPHRASE", "AUTHCTL_KEYSTORE_KEY_FILE"])
    func keystoreSecretAsClientSecret(_ variable: String) async throws {
        try await signIn()
        let environment: [String: String]
        if variable == "AUTHCTL_KEYSTORE_KEY_FILE" {
            environment = [variable: try await sealWithKeyFile()]
        } else {
            environment = [variable: "correct horse battery staple"]
            let sealed = try await authctl.run(["keystore", "seal", "--passphrase-env", variable], environment: environment)
            #expect(sealed.status == 0, "\(sealed.stderr)")
        }
        try editConfig { $0.replacingOccurrences(of: "\"issuer\"", with: "\"clientSecretEnv\": \"\(variable)\", \"issuer\"") }
        let result = try await authctl.run(["token", "--force-refresh"], environment: environment)
        #expect(result.status == 7, "\(result.stderr)")
        #expect(result.stderr.contains("clientSecretEnv") && result.stderr.contains(variable), "\(result.stderr)")
        #expect(victim.count("refresh") == 0)
        #expect(!result.stderr.contains("correct horse"))
    }

    @Test("providers add refuses the keystore's own secrets as the client secret (exit 2)")
    func providersAddRefuses() async throws {
        for arguments in [
            ["--client-secret-env", "AUTHCTL_KEYSTORE_PASSPHRASE"], ["--client-secret-env", "AUTHCTL_KEYSTORE_KEY_FILE"],
        ] {
            let result = try await authctl.run(
                ["providers", "add", "oidc.x", "--issuer", victim.issuer, "--client-id", "c"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(arguments[1]), "\(result.stderr)")
        }
    }

    @Test("clientSecretFile naming the keystore's key file (or the keystore itself) is refused when read: the key is never sent")
    func keyFileAsClientSecret() async throws {
        try await signIn()
        let keyFile = try await sealWithKeyFile()
        for path in [keyFile, authctl.keystorePath] {
            let text = try String(contentsOfFile: authctl.configPath, encoding: .utf8)
            try write(config: text.replacingOccurrences(of: "\"issuer\"", with: "\"clientSecretFile\": \"\(path)\", \"issuer\""))
            let result = try await authctl.run(["token", "--force-refresh"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": keyFile])
            #expect(result.status == 7, "\(path): \(result.stderr)")
            #expect(victim.count("refresh") == 0, "\(path)")
            try write(config: text)
        }
    }

    @Test("the provider as it was signed in keeps working: a refresh at the bound origin, and the binding is stored readable")
    func boundRefreshWorks() async throws {
        try await signIn()
        let refresh = try await authctl.run(["token", "--force-refresh"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        #expect(victim.count("refresh") == 1)
        let stored = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        let origin = try #require(URL(string: victim.issuer).flatMap(Origin.init)).description
        #expect(stored.contains("\"egress\"") && stored.contains(origin), "\(stored)")
    }
}
