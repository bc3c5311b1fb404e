import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// A sealed keystore through the real binary: every keystore command, the key from the
/// environment, exit statuses, and `token` processes running while the keystore is rekeyed.
@Suite("Sealed keystore (binary)")
struct SealedKeystoreBinaryTests {
    let authctl = AuthctlProcess()

    func signIn() async throws {
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let identity = LinkedIdentity(
            providerID: "oidc.fake", issuer: "https://idp.example", federatedID: "sub-1",
            profile: Profile(email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil), linkedAt: now,
            tokens: TokenSet(
                accessToken: "at-sealed-1", expiresAt: now.addingTimeInterval(3600), refreshToken: "rt-sealed-1", idToken: "id-sealed-1",
                scopes: ["openid"]))
        let user = User(
            uid: "uid-1", email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil, createdAt: now,
            lastSignInAt: now,
            lastAuthAt: now, lastProviderID: "oidc.fake", providerData: [identity])
        try await FileKeystore(path: authctl.keystorePath, random: SystemRandomSource()).update {
            $0 = AccountState(currentUID: "uid-1", users: [user])
        }
    }

    func newKeyFile(_ name: String) async throws -> String {
        let made = try await authctl.run(["keystore", "new-key"])
        #expect(made.status == 0 && made.stdout.count == 45)
        let path = authctl.home + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data(made.stdout.utf8), attributes: [.posixPermissions: 0o600]))
        return path
    }

    @Test("every keystore command on the binary: seal, status, token with and without the key, rekey, unseal")
    func commands() async throws {
        try await signIn()
        let key = try await newKeyFile("k1")
        #expect(try await authctl.run(["keystore", "seal", "--key-file", key]).status == 0)
        let text = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        #expect(!text.contains("sealed-1") && text.contains("\"version\" : 2"))

        let without = try await authctl.run(["token"])
        #expect(without.status == 6 && without.stderr.contains("AUTHCTL_KEYSTORE_KEY_FILE") && without.stdout.isEmpty)
        #expect(try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key]).stdout == "at-sealed-1\n")
        let status = try await authctl.run(["status"])
        #expect(status.status == 0 && status.stdout.contains("tokens sealed"))
        #expect(try await authctl.run(["users", "list"]).status == 0)
        #expect(try await authctl.run(["keystore", "status"]).stdout.contains("Sealed with a key file"))

        let second = try await newKeyFile("k2")
        #expect(
            try await authctl.run(["keystore", "rekey", "--key-file", second], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key]).status == 0)
        #expect(try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key]).status == 6)
        #expect(try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": second]).stdout == "at-sealed-1\n")
        #expect(try await authctl.run(["keystore", "unseal"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": second]).status == 0)
        #expect(try await authctl.run(["token"]).stdout == "at-sealed-1\n")
    }

    @Test("token processes while the keystore is rekeyed again and again (same key file, new data key): all succeed")
    func concurrentRekey() async throws {
        try await signIn()
        let key = try await newKeyFile("k")
        #expect(try await authctl.run(["keystore", "seal", "--key-file", key]).status == 0)
        let authctl = self.authctl
        let environment = ["AUTHCTL_KEYSTORE_KEY_FILE": key]
        let (tokens, rekeys) = try await withThrowingTaskGroup(of: [AuthctlProcess.Result].self) { group in
            group.addTask {
                var results: [AuthctlProcess.Result] = []
                for _ in 0..<8 {
                    results.append(try await authctl.run(["keystore", "rekey", "--key-file", key], environment: environment))
                }
                return results
            }
            for _ in 0..<4 {
                group.addTask {
                    var results: [AuthctlProcess.Result] = []
                    for _ in 0..<8 { results.append(try await authctl.run(["token"], environment: environment)) }
                    return results.map {
                        var result = $0; result.stderr = "token: " + result.stderr; return result
                    }
                }
            }
            var tokens: [AuthctlProcess.Result] = [], rekeys: [AuthctlProcess.Result] = []
            for try await results in group {
                for result in results { if result.stderr.hasPrefix("token: ") { tokens.append(result) } else { rekeys.append(result) } }
            }
            return (tokens, rekeys)
        }
        #expect(rekeys.count == 8 && rekeys.allSatisfy { $0.status == 0 }, "\(rekeys.map(\.stderr))")
        #expect(tokens.count == 32 && tokens.allSatisfy { $0.status == 0 && $0.stdout == "at-sealed-1\n" }, "\(tokens.map(\.stderr))")
    }

    @Test("a key file that others may read is refused with the fix")
    func keyFileMode() async throws {
        try await signIn()
        let key = try await newKeyFile("k")
        chmod(key, 0o640)
        let refused = try await authctl.run(["keystore", "seal", "--key-file", key])
        #expect(refused.status == 6 && refused.stderr.contains("chmod 600"))
    }
}
