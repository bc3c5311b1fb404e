import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The real binary with the Firebase backend (docs/firebase.md), against the fake Identity Toolkit,
/// which brokers the sign-in at a real local OpenID provider; curl plays the browser. The
/// whole journey, each step its own process: sign in, token, refresh, link, a conflict
/// resumed by another process, unlink, delete too late and in time, disabled, revoked, and
/// the emulator given by FIREBASE_AUTH_EMULATOR_HOST.
@Suite("authctl binary with the Firebase backend", .serialized)
final class FirebaseBinaryTests {
    let firebase: FakeFirebaseAuth
    let provider: FakeIdentityProvider
    let other: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() throws {
        firebase = try FakeFirebaseAuth()
        provider = try FakeIdentityProvider()
        other = try FakeIdentityProvider()
        other.update { $0.subject = "other-subject" }  // the same verified email as provider's account
        firebase.enable("oidc.corp", provider: provider, clientSecret: "console-secret-\(UUID().uuidString)")
        firebase.enable("oidc.other", provider: other)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// Backend set with a dead --emulator: FIREBASE_AUTH_EMULATOR_HOST, given to every run, overrides it.
    var environment: [String: String] { ["FIREBASE_AUTH_EMULATOR_HOST": firebase.emulatorHost] }

    func run(_ arguments: [String], stdin: Data? = nil) async throws -> AuthctlProcess.Result {
        try await authctl.run(arguments, environment: environment, stdin: stdin)
    }

    func browse(_ command: String, _ provider: String, _ extra: [String] = []) async throws -> AuthctlProcess.Result {
        try await run([command, provider, "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"] + extra)
    }

    @Test("the journey: sign in, token, refresh, link, a conflict resumed by another process, unlink, delete too late and in time")
    func journey() async throws {
        let use = try await authctl.run([
            "backend", "use", "firebase", "--project", firebase.projectID, "--api-key", firebase.apiKey, "--emulator", "127.0.0.1:9",
        ])
        #expect(use.status == 0, "\(use.stderr)")
        // Without the variable, the configured (dead) emulator is used: a network failure, no key in the message.
        let dead = try await authctl.run(["login", "oidc.corp", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
        #expect(dead.status == 3, "\(dead.stderr)")
        #expect(!dead.stderr.contains(firebase.apiKey))

        // A session that began a minute ago (the binary's clock cannot be moved).
        firebase.update { $0.idTokenIssuedAgo = 60 }
        let login = try await browse("login", "oidc.corp", ["--json"])
        #expect(login.status == 0, "\(login.stderr)")
        let uid = try #require(login.json?["user"]?.objectValue?["uid"]?.stringValue)
        #expect(firebase.user(uid) != nil)
        let token = try await run(["token"])
        #expect(token.status == 0, "\(token.stderr)")
        let calls = firebase.receivedRequests.count
        #expect(try await run(["token", "--format", "header"]).stdout.hasPrefix("Authorization: Bearer ey"))
        #expect(firebase.receivedRequests.count == calls, "a cached token needs no call")
        // A refresh when the token expires within --min-ttl; its result stored.
        firebase.update { $0.idTokenIssuedAgo = 0 }
        let refreshed = try await run(["token", "--min-ttl", "7200", "--format", "json"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(refreshed.json?["providerId"] == "firebase")
        #expect(firebase.count("token") == 1)
        #expect(try await run(["token", "oidc.corp"]).stdout.hasPrefix("at-"))

        // A conflict in one process, resumed by another.
        let exists = try await browse("login", "oidc.other", ["--json"])
        #expect(exists.status == 10, "\(exists.stderr)")
        let handle = try #require(exists.json?["error"]?.objectValue?["pendingCredential"]?.stringValue)
        #expect(try await browse("login", "oidc.corp").status == 0)
        let linked = try await run(["link", "--pending", handle])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(firebase.user(uid)?.identities.count == 2)

        let unlinked = try await run(["unlink", "oidc.other"])
        #expect(unlinked.status == 0, "\(unlinked.stderr)")
        #expect(firebase.user(uid)?.identities.map(\.providerID) == ["oidc.corp"])
        let relinked = try await browse("link", "oidc.other")
        #expect(relinked.status == 0, "\(relinked.stderr)")

        firebase.ageSignIns(by: 600)
        let tooLate = try await run(["users", "delete"])
        #expect(tooLate.status == 15, "\(tooLate.stderr)")
        #expect(firebase.user(uid) != nil)
        #expect(try await browse("reauth", "oidc.corp").status == 0)
        let deleted = try await run(["users", "delete"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(firebase.user(uid) == nil)

        // Nothing secret in any output.
        let pendingTokens = firebase.issuedSecrets.filter { $0.hasPrefix("pt-") }
        #expect(!pendingTokens.isEmpty)
        for result in [login, token, refreshed, exists, linked, unlinked, tooLate, deleted] {
            let output = result.stdout + result.stderr
            #expect(!output.contains(firebase.apiKey))
            for secret in pendingTokens { #expect(!output.contains(secret)) }
        }
    }

    @Test("many processes needing the refresh at once: one refresh, the same token for all")
    func oneRefreshForMany() async throws {
        let use = try await authctl.run(["backend", "use", "firebase", "--project", firebase.projectID, "--api-key", firebase.apiKey])
        #expect(use.status == 0, "\(use.stderr)")
        firebase.update { $0.idTokenIssuedAgo = 60 }
        #expect(try await browse("login", "oidc.corp").status == 0)
        firebase.update { $0.idTokenIssuedAgo = 0 }
        let started = try (0..<5).map { _ in try authctl.start(["token", "--min-ttl", "7200"], environment: environment) }
        var outputs: [String] = []
        for process in started {
            let result = await AuthctlProcess.finish(process)
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(result.stdout)
        }
        #expect(firebase.count("token") == 1)
        #expect(Set(outputs).count == 1)
    }

    @Test("a disabled account is exit 19; a revoked session exit 20, its tokens dropped and the record kept")
    func disabledAndRevoked() async throws {
        let use = try await authctl.run([
            "backend", "use", "firebase", "--project", firebase.projectID, "--api-key", firebase.apiKey,
        ])
        #expect(use.status == 0, "\(use.stderr)")
        #expect(try await browse("login", "oidc.corp").status == 0)
        let uid = try #require(firebase.users.first?.localID)
        firebase.setDisabled(uid)
        let disabled = try await run(["token", "--force-refresh"])
        #expect(disabled.status == 19, "\(disabled.stderr)")
        let signIn = try await browse("login", "oidc.corp")
        #expect(signIn.status == 19, "\(signIn.stderr)")
        firebase.setDisabled(uid, false)
        firebase.revokeSessions(of: uid)
        let revoked = try await run(["token", "--force-refresh"])
        #expect(revoked.status == 20, "\(revoked.stderr)")
        #expect(try await run(["status"]).status == 16)
        let list = try await run(["users", "list", "--json"])
        #expect(list.json?["users"]?.arrayValue?.count == 1)
        #expect(try await browse("login", "oidc.corp").status == 0, "signing in again works")
    }
}
