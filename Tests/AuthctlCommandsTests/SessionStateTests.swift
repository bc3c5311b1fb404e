import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// What `status` says about a session the provider ended (issue 25, item 3): a refresh the
/// provider refused is remembered as "needs sign-in", and `status --check` asks the provider.
@Suite("session state: needs sign-in and status --check", .serialized)
final class SessionStateTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func signIn() async throws {
        try await authctl.addFakeProvider(provider)
        try await authctl.run(["login", "oidc.fake", "--timeout", "120"]).expectSuccess()
    }

    @Test("a refresh refused with invalid_grant is stored as needs sign-in: status no longer says refreshable")
    func refusedRefreshShows() async throws {
        try await signIn()
        provider.endSessions()
        let refused = try await authctl.run(["token", "--force-refresh"])
        #expect(refused.status == 4, "\(refused.stderr)")
        let status = try await authctl.run(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("needs sign-in since"), "\(status.stdout)")
        #expect(!status.stdout.contains("refreshable"), "\(status.stdout)")
        #expect(status.stdout.contains("authctl login oidc.fake"), "\(status.stdout)")
        let json = try await authctl.run(["status", "--json"])
        let identity = json.json?["user"]?.objectValue?["providerData"]?.arrayValue?.first?.objectValue
        #expect(identity?["refreshable"] == .bool(false), "\(json.stdout)")
        #expect(identity?["needsSignInSince"]?.stringValue != nil, "\(json.stdout)")
    }

    @Test("a later successful sign-in clears the needs sign-in mark")
    func signInClearsMark() async throws {
        try await signIn()
        provider.endSessions()
        _ = try await authctl.run(["token", "--force-refresh"])
        try await authctl.run(["login", "oidc.fake", "--timeout", "120"]).expectSuccess()
        let status = try await authctl.run(["status"])
        #expect(!status.stdout.contains("needs sign-in"), "\(status.stdout)")
        #expect(status.stdout.contains("refreshable"), "\(status.stdout)")
    }

    @Test("status --check asks the provider's introspection endpoint: active exits 0, ended exits 4 with the provider's words")
    func checkByIntrospection() async throws {
        provider.update { $0.introspectionSupported = true }
        try await signIn()
        let active = try await authctl.run(["status", "--check"])
        #expect(active.status == 0, "\(active.stderr)")
        #expect(active.stdout.contains("oidc.fake says the session is active (token introspection)"), "\(active.stdout)")
        #expect(provider.count("introspect") == 1)
        provider.endSessions()
        let ended = try await authctl.run(["status", "--check", "--json"])
        #expect(ended.status == 4, "\(ended.stderr)")
        #expect(ended.stderr.contains("oidc.fake says the session is no longer active"), "\(ended.stderr)")
        let check = ended.json?["check"]?.objectValue
        #expect(check?["active"] == .bool(false) && check?["method"] == .string("introspection"), "\(ended.stdout)")
    }

    @Test("status --check without introspection asks userinfo with the access token, and reports the provider's words")
    func checkByUserinfo() async throws {
        provider.update { $0.userinfoSupported = true }
        try await signIn()
        let active = try await authctl.run(["status", "--check"])
        #expect(active.status == 0, "\(active.stderr)")
        #expect(active.stdout.contains("oidc.fake says the session is active (userinfo)"), "\(active.stdout)")
        provider.endSessions()
        let ended = try await authctl.run(["status", "--check"])
        #expect(ended.status == 4, "\(ended.stderr)")
        #expect(ended.stderr.contains("The access token is not active"), "\(ended.stderr)")
        #expect(!provider.issuedSecrets.contains { ended.stderr.contains($0) || ended.stdout.contains($0) })
    }

    @Test("status --check changes nothing in the keystore")
    func checkWritesNothing() async throws {
        provider.update { $0.introspectionSupported = true }
        try await signIn()
        provider.endSessions()
        let before = authctl.keystoreBytes()
        _ = try await authctl.run(["status", "--check"])
        #expect(authctl.keystoreBytes() == before)
    }
}
