import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `token --scope S` asks for a narrower access token with the session's refresh token
/// (issue 25, item 12). RFC 6749 §6: a rotated refresh token keeps the scope of the original
/// grant, so the rotated one is stored (the old one no longer works at a rotating
/// provider), and the session's access token and scopes stay what the sign-in granted. A
/// provider that narrows the rotated refresh token anyway never narrows the session
/// silently: the session's next refresh asks for the session's scopes and, refused, says to
/// sign in again, its scopes still the sign-in's.
@Suite("token --scope never narrows the session", .serialized)
final class ScopedTokenSessionTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// The session's token set as stored.
    func session() throws -> [String: JSONValue] {
        let state = try #require(authctl.keystoreBytes().flatMap(JSONValue.object(from:)))
        let identity = state["users"]?.arrayValue?.first?.objectValue?["providerData"]?.arrayValue?.first?.objectValue
        return try #require(identity?["tokens"]?.objectValue)
    }

    func signInThenScoped() async throws -> (before: [String: JSONValue], after: [String: JSONValue]) {
        let login = try await authctl.run(["login", "oidc.fake", "--timeout", "120"])
        #expect(login.status == 0, "\(login.stderr)")
        let before = try session()
        let scoped = try await authctl.run(["token", "--scope", "openid"])
        #expect(scoped.status == 0 && scoped.stdout.hasPrefix("at-"), "\(scoped.stderr)")
        return (before, try session())
    }

    @Test("a rotating provider: the rotated refresh token is stored, the session's access token and scopes are the sign-in's")
    func rotatingProvider() async throws {
        let (before, after) = try await signInThenScoped()
        #expect(after["refreshToken"] != before["refreshToken"], "the old refresh token is spent at a rotating provider")
        #expect(after["accessToken"] == before["accessToken"] && after["scopes"] == before["scopes"], "\(after)")
        // The session refreshes with the stored refresh token, and keeps its scopes.
        let refreshed = try await authctl.run(["token", "--force-refresh", "--json"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(refreshed.json?["scopes"] == before["scopes"], "\(refreshed.stdout)")
    }

    @Test("a provider that narrows the rotated refresh token: the session keeps the sign-in's scopes and is told to sign in again")
    func narrowingProvider() async throws {
        provider.update { $0.narrowRotatedRefreshTokens = true }
        let (before, after) = try await signInThenScoped()
        #expect(after["refreshToken"] != before["refreshToken"], "the old refresh token is spent: the new one is stored")
        #expect(after["scopes"] == before["scopes"] && after["accessToken"] == before["accessToken"], "\(after)")
        let refreshed = try await authctl.run(["token", "--force-refresh", "--json"])
        if refreshed.status == 0 {
            #expect(refreshed.json?["scopes"] == before["scopes"], "the session was narrowed: \(refreshed.stdout)")
        } else {
            #expect(refreshed.stderr.contains("authctl login oidc.fake"), "\(refreshed.stderr)")
        }
        #expect(try session()["scopes"] == before["scopes"], "the stored session keeps the sign-in's scopes")
    }
}
