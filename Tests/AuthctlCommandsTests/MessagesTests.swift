import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Messages that use what authctl knows (issue 15, item 6).
@Suite("messages name what authctl knows", .serialized)
final class MessagesTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    @Test("a wrong paste at --manual says what was expected (the redirect URI) and is invalid-argument, not a cancellation")
    func wrongPaste() async throws {
        let result = try await authctl.runManual(["login", "oidc.fake", "--manual", "--timeout", "120"]) { _ in
            "https://example.com/not-the-redirect?code=x"
        }
        #expect(result.status == 2, "\(result.stderr)")
        let error = result.stderr.split(separator: "\n").last { $0.hasPrefix("authctl: ") } ?? ""
        #expect(error.contains("http://127.0.0.1:") && error.contains("/callback"), "names the redirect URI: \(error)")
        #expect(!error.contains("code=x"), "never echoes the paste")
    }

    @Test("token for an identity the user is signed out of says so and how to sign in to it, not 'nobody is signed in'")
    func signedOutIdentity() async throws {
        let login = try await authctl.run(["login", "oidc.fake", "--timeout", "120"])
        #expect(login.status == 0, "\(login.stderr)")
        // A second identity whose tokens are gone (as after an import), the user still current.
        let bytes = try #require(authctl.keystoreBytes())
        var state = try #require(JSONValue.object(from: bytes))
        guard case .array(var users) = state["users"], case .object(var user) = users[0],
            case .array(var identities) = user["providerData"],
            case .object(var second) = identities[0]
        else { Issue.record("keystore shape"); return }
        second["providerId"] = .string("oidc.other")
        second["federatedId"] = .string("someone-else")
        second["tokens"] = nil
        identities.append(.object(second))
        user["providerData"] = .array(identities)
        users[0] = .object(user)
        state["users"] = .array(users)
        let encoder = JSONEncoder()
        try encoder.encode(JSONValue.object(state)).write(to: URL(fileURLWithPath: authctl.keystorePath))
        chmod(authctl.keystorePath, 0o600)

        let result = try await authctl.run(["token", "oidc.other"])
        #expect(result.status != 0)
        #expect(!result.stderr.contains("nobody is signed in"), "\(result.stderr)")
        #expect(
            result.stderr.contains("signed out of oidc.other") && result.stderr.contains("authctl reauth oidc.other"), "\(result.stderr)")
    }

    @Test("nobody signed in: token PROVIDER and status name the provider to sign in to, not a placeholder")
    func nobodySignedIn() async throws {
        let token = try await authctl.run(["token", "oidc.fake"])
        #expect(token.status == 16 && token.stderr.contains("authctl login oidc.fake"), "\(token.stderr)")
        #expect(!token.stderr.contains("PROVIDER"), "\(token.stderr)")
        // The one configured provider is the one to sign in to.
        let status = try await authctl.run(["status"])
        #expect(status.status == 16 && status.stderr.contains("authctl login oidc.fake"), "\(status.stderr)")
        let bare = try await authctl.run(["token"])
        #expect(bare.status == 16 && bare.stderr.contains("authctl login oidc.fake"), "\(bare.stderr)")
    }

    @Test("users use of a signed-out user names how to sign in to it")
    func useSignedOut() async throws {
        let login = try await authctl.run([
            "login", "oidc.fake", "--timeout", "120", "--json",
        ])
        let uid = try #require(login.json?["user"]?.objectValue?["uid"]?.stringValue)
        #expect(try await authctl.run(["signout"]).status == 0)
        let result = try await authctl.run(["users", "use", uid])
        #expect(result.status == 16, "\(result.stderr)")
        #expect(result.stderr.contains("authctl login oidc.fake"), "\(result.stderr)")
    }
}
