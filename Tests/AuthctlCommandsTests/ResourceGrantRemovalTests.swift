import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `providers remove` of a client that `login URL` registered (docs/resources.md): the
/// resource grants obtained with it go too — they can be neither refreshed nor revoked
/// without it — rather than staying behind as "signed out" entries of `status`.
@Suite("providers remove and the grants of a registered resource client")
struct ResourceGrantRemovalTests {
    let authctl = InProcessAuthctl(clock: InProcessAuthctl.fixedClock())

    func seed() async throws {
        let directory = (authctl.configPath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o700)
        let config = #"""
            {"version": 1, "providers": {
              "oidc.as-example": {"id": "oidc.as-example", "clientId": "registered-1", "issuer": "https://as.example",
                                  "registrationClientUri": "https://as.example/register/registered-1"},
              "oidc.corp": {"id": "oidc.corp", "clientId": "corp", "issuer": "https://corp.example"}}}
            """#
        try Data(config.utf8).write(to: URL(fileURLWithPath: authctl.configPath))
        chmod(authctl.configPath, 0o600)
        let now = authctl.clock.now()
        var user = User(
            uid: "uid-1", email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil, createdAt: now,
            lastSignInAt: now, lastAuthAt: now, lastProviderID: nil, providerData: [])
        for (resource, provider, issuer) in [
            ("https://api.example.com/mcp", "oidc.as-example", "https://as.example"),
            ("https://tools.example.com/mcp", "oidc.corp", "https://corp.example"),
        ] {
            user.store(
                ResourceGrant(
                    resource: resource, issuer: issuer, providerID: provider, grantedAt: now,
                    tokens: TokenSet(
                        accessToken: "at-secret", expiresAt: now.addingTimeInterval(3600), refreshToken: "rt-secret", idToken: nil,
                        scopes: ["read"])))
        }
        try await FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock()).update {
            $0 = AccountState(currentUID: "uid-1", users: [user])
        }
    }

    @Test("C4: removing the registered client removes its grants; another provider's grant stays")
    func grantsRemoved() async throws {
        try await seed()
        let removed = try await authctl.run(["providers", "remove", "oidc.as-example", "--yes"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let state = try FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock()).read()
        let grants = state.users.first?.resourceGrants ?? []
        #expect(grants.map(\.resource) == ["https://tools.example.com/mcp"], "\(grants.map(\.resource))")
        let status = try await authctl.run(["status"])
        #expect(!status.stdout.contains("https://api.example.com/mcp"), "\(status.stdout)")
    }
}
