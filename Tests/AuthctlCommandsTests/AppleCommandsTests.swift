import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The commands against the fake Apple, in-process, with a browser that submits Apple's
/// form_post page as a browser does (`FollowingBrowser`).
@Suite("authctl and Sign in with Apple end to end", .serialized)
final class AppleCommandsTests {
    let apple: FakeApple
    let oidc: FakeIdentityProvider
    let authctl = InProcessAuthctl()
    let keyFile: String

    init() throws {
        apple = try FakeApple()
        apple.behaviour.privateRelay = true
        oidc = try FakeIdentityProvider()
        keyFile = authctl.home + "/AuthKey_\(apple.keyID).p8"
        _ = FileManager.default.createFile(
            atPath: keyFile, contents: Data(apple.privateKeyPEM.utf8), attributes: [.posixPermissions: 0o644])
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func run(_ arguments: [String]) async throws -> InProcessAuthctl.Result {
        let flow =
            ["login", "link", "reauth"].contains(arguments[0]) ? ["--timeout", "120"] : []
        return try await authctl.run(arguments + flow)
    }

    @Test("providers add, login with form_post, status, token, consent for the private relay, unlink with revocation, users delete")
    func wholeSession() async throws {
        let add = [
            "providers", "add", "apple.com", "--issuer", apple.issuer, "--client-id", apple.clientID, "--team-id", apple.teamID,
            "--key-id", apple.keyID, "--private-key-file", keyFile,
        ]
        let unsafe = try await run(add)
        #expect(unsafe.status == 7 && unsafe.stderr.contains("chmod 600"), "\(unsafe.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile)
        #expect(try await run(add).status == 0)
        let config = String(decoding: FileManager.default.contents(atPath: authctl.configPath) ?? Data(), as: UTF8.self)
        #expect(config.contains(keyFile) && !config.contains("PRIVATE KEY"), "the key is referenced, never copied")
        #expect(try await run(["providers", "add", "oidc.work", "--issuer", oidc.issuer, "--client-id", oidc.clientID]).status == 0)

        let login = try await run(["login", "apple", "--json"])
        #expect(login.status == 0, "\(login.stderr)")
        let user = login.json?["user"]?.objectValue
        #expect(user?["displayName"] == "Ada Lovelace" && login.json?["isNewUser"] == .bool(true))
        #expect(try await run(["status"]).stdout.contains("apple.com"))
        #expect(try await run(["token"]).status == 0)

        let before = authctl.keystoreBytes()
        let refused = try await run(["link", "oidc.work", "--json"])
        #expect(refused.status == 18 && refused.json?["error"]?.objectValue?["code"] == "consent-required", "\(refused.stderr)")
        #expect(authctl.keystoreBytes() == before)
        let linked = try await run(["link", "oidc.work", "--consent"])
        #expect(linked.status == 0, "\(linked.stderr)")

        let unlink = try await run(["unlink", "apple.com"])
        #expect(unlink.status == 0 && unlink.stderr.contains("revoked the apple.com refresh token"), "\(unlink.stderr)")
        #expect(apple.revoked.count == 1)
        #expect(try await run(["reauth", "oidc.work"]).status == 0)
        let deleted = try await run(["users", "delete", "--json"])
        #expect(deleted.status == 0 && deleted.json?["revocations"]?.arrayValue?.count == 1, "\(deleted.stderr)")

        for output in [login, refused, linked, unlink, deleted] {
            for secret in apple.issuedSecrets + oidc.issuedSecrets where secret.count > 8 {
                #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret))
            }
        }
    }
}
