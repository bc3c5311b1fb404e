import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The provider rules that need no configuration (`ProviderSetUpRules`, `BrokeredSignInRules`,
/// `WorkloadRules.signsInWorkloadsUnconfigured`), read through `ProviderRegistry.kind(of:)` as
/// Firebase, `providers add` and a workload's sign-in read them: each quirk belongs to its
/// provider, and every other provider keeps the neutral answer.
@Suite("Provider kind rules")
struct ProviderKindRulesTests {
    static func kind(_ id: String) throws -> any IdentityProvider.Type { ProviderRegistry.kind(of: try ProviderID(parsing: id)) }

    @Test("the registry builds each kind's provider", arguments: ["microsoft.com", "apple.com", "oidc.corp"])
    func registry(id: String) throws {
        let provider = try ProviderRegistry.provider(for: ProviderConfig(id: id, clientID: "c", issuer: "https://id.example.com"))
        #expect(type(of: provider) == (try Self.kind(id)))
        #expect(provider.id.rawValue == id)
    }

    @Test("only oidc.* providers take a preset, and need an issuer")
    func presets() throws {
        #expect(try Self.kind("oidc.corp").takesPresets)
        #expect(try !Self.kind("microsoft").takesPresets)
        #expect(try !Self.kind("apple").takesPresets)
        #expect(try Self.kind("oidc.corp").requiresIssuer)
        #expect(try !Self.kind("microsoft").requiresIssuer)
        #expect(try !Self.kind("apple").requiresIssuer)
    }

    @Test("only Microsoft signs a workload in unconfigured")
    func unconfiguredWorkloads() throws {
        #expect(try Self.kind("microsoft").signsInWorkloadsUnconfigured)
        #expect(try !Self.kind("apple").signsInWorkloadsUnconfigured)
        #expect(try !Self.kind("oidc.corp").signsInWorkloadsUnconfigured)
    }

    @Test("a brokered Microsoft sign-in sends --tenant as its tenant parameter; others keep theirs")
    func brokeredParameters() throws {
        let given = [("tenant", "old"), ("prompt", "select_account")]
        let microsoft = try Self.kind("microsoft").brokeredParameters(given, tenant: "contoso.onmicrosoft.com")
        #expect(microsoft.map { "\($0.0)=\($0.1)" } == ["prompt=select_account", "tenant=contoso.onmicrosoft.com"])
        #expect(try Self.kind("microsoft").brokeredParameters(given, tenant: nil).map(\.1) == ["old", "select_account"])
        #expect(throws: AuthError.self) { try Self.kind("microsoft").brokeredParameters([], tenant: "not a tenant!") }
        for id in ["apple", "oidc.corp"] {
            #expect(try Self.kind(id).brokeredParameters(given, tenant: "contoso.onmicrosoft.com").map(\.1) == ["old", "select_account"])
        }
    }

    @Test("a broker refuses an ID token obtained elsewhere for Microsoft only")
    func brokeredIDTokens() throws {
        #expect(throws: AuthError.self) { try Self.kind("microsoft").checkBrokeredIDToken() }
        try Self.kind("apple").checkBrokeredIDToken()
        try Self.kind("oidc.corp").checkBrokeredIDToken()
    }

    @Test("Apple's tokens are revoked when the account goes; no other provider's")
    func revocationAtDeletion() throws {
        #expect(try Self.kind("apple").revokesTokensWhenAccountDeleted)
        #expect(try !Self.kind("microsoft").revokesTokensWhenAccountDeleted)
        #expect(try !Self.kind("oidc.corp").revokesTokensWhenAccountDeleted)
    }

    @Test("a private key file given to providers add is checked for Apple only")
    func privateKeyFiles() async throws {
        let secrets = StaticSecrets()
        await #expect(throws: AuthError.self) {
            try await Self.kind("apple").checkPrivateKeyFile("/nonexistent/AuthKey.p8", keyID: nil, secrets: secrets, now: Date())
        }
        try await Self.kind("oidc.corp").checkPrivateKeyFile("/nonexistent/AuthKey.p8", keyID: nil, secrets: secrets, now: Date())
        try await Self.kind("microsoft").checkPrivateKeyFile("/nonexistent/AuthKey.p8", keyID: nil, secrets: secrets, now: Date())
    }
}
