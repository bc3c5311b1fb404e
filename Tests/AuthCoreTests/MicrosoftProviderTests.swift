import AuthCore
import Foundation
import Testing

/// The Microsoft rules of docs/microsoft.md as pure functions: tenants, issuers, federated ids.
@Suite("Microsoft provider rules")
struct MicrosoftProviderTests {
    static let host = "https://login.microsoftonline.com"
    static let contoso = "8eaef023-2b34-4da1-9baa-8bc8c9d6a490"
    static let fabrikam = "2d4d11a2-f814-46a7-890a-274a72a7309e"
    static let personal = MicrosoftTenant.personalAccountsTenantID

    @Test(
        "each tenant form is accepted and chooses the authority path",
        arguments: [
            ("common", MicrosoftTenant.common, "common"), ("organizations", .organizations, "organizations"),
            ("consumers", .consumers, "consumers"), ("Common", .common, "common"),
            ("8EAEF023-2B34-4DA1-9BAA-8BC8C9D6A490", .id(contoso), contoso),
            ("contoso.onmicrosoft.com", .domain("contoso.onmicrosoft.com"), "contoso.onmicrosoft.com"),
            ("login.contoso.co.uk", .domain("login.contoso.co.uk"), "login.contoso.co.uk"),
        ])
    func tenantForms(text: String, tenant: MicrosoftTenant, segment: String) throws {
        let parsed = try MicrosoftTenant(parsing: text)
        #expect(parsed == tenant)
        let provider = try MicrosoftProvider(
            id: ProviderID(parsing: "microsoft"), config: ProviderConfig(id: "microsoft.com", clientID: "c", tenant: text))
        #expect(provider.issuer == "\(Self.host)/\(segment)/v2.0")
        #expect(provider.discoveryURL.absoluteString == "\(Self.host)/\(segment)/v2.0/.well-known/openid-configuration")
    }

    @Test(
        "anything else is invalid-argument listing the accepted forms",
        arguments: [
            "", "contoso", "8eaef023-2b34-4da1-9baa", "common/oauth2", "contoso.onmicrosoft.com/x", "-bad.example.com", "127.0.0.1",
            "tenant id", "comm0n?x=1",
        ])
    func refusedTenants(text: String) {
        #expect {
            try MicrosoftTenant(parsing: text)
        } throws: { error in
            let error = error as? AuthError
            return error?.code == .invalidArgument && error?.message.contains("common, organizations, consumers") == true
                && error?.message.contains("GUID") == true && error?.message.contains("contoso.onmicrosoft.com") == true
        }
    }

    @Test("providers add microsoft.com validates --tenant, --authority-host and --graph-host; other providers refuse them")
    func configValidation() throws {
        try ProviderConfig(
            id: "microsoft.com", clientID: "c", tenant: "organizations", authorityHost: "https://login.microsoftonline.us",
            graphHost: "https://graph.microsoft.us/"
        ).validate()
        try ProviderConfig(id: "microsoft.com", clientID: "c", authorityHost: "http://127.0.0.1:8080").validate()
        // A base path (AD FS, a gateway) is kept (docs/authctl.1).
        try ProviderConfig(id: "microsoft.com", clientID: "c", authorityHost: "https://adfs.contoso.com/adfs/").validate()
        try ProviderConfig(id: "microsoft.com", clientID: "c", graphHost: "https://gateway.contoso.com/graph").validate()
        let refused: [ProviderConfig] = [
            ProviderConfig(id: "microsoft.com", tenant: "not a tenant"),
            ProviderConfig(id: "microsoft.com", authorityHost: "http://login.microsoftonline.com"),
            ProviderConfig(id: "microsoft.com", authorityHost: "https://login.microsoftonline.com/common"),
            ProviderConfig(id: "microsoft.com", authorityHost: "https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0"),
            ProviderConfig(id: "microsoft.com", authorityHost: "https://login.microsoftonline.com/8eaef023-2b34-4da1-9baa-8bc8c9d6a490"),
            ProviderConfig(id: "microsoft.com", authorityHost: "https://login.microsoftonline.com/x?y=1"),
            ProviderConfig(id: "microsoft.com", graphHost: "graph.microsoft.com"),
            ProviderConfig(id: "oidc.x", issuer: "https://idp.example", tenant: "common"),
            ProviderConfig(id: "oidc.x", issuer: "https://idp.example", graphHost: "https://graph.microsoft.com"),
        ]
        for config in refused {
            #expect(throws: AuthError.self) { try config.validate() }
            #expect((try? config.validate()) == nil)
        }
    }

    func rule(_ tenant: MicrosoftTenant) -> MicrosoftIssuer { MicrosoftIssuer(authorityHost: Self.host, tenant: tenant) }

    @Test("the {tenantid} template is filled with the token's tid and compared exactly")
    func templateSubstitution() throws {
        let template = "\(Self.host)/{tenantid}/v2.0"
        for tenant in [MicrosoftTenant.common, .organizations, .consumers] { try rule(tenant).checkDiscoveryIssuer(template) }
        #expect(rule(.common).expectedIssuer(discoveryIssuer: template, tid: Self.contoso) == "\(Self.host)/\(Self.contoso)/v2.0")
        #expect(rule(.common).expectedIssuer(discoveryIssuer: template, tid: "not-a-guid") == nil)
        #expect(rule(.common).expectedIssuer(discoveryIssuer: template, tid: nil) == nil)
        // A tenant's own issuer: the expected issuer follows the token's tid, so that the
        // tenant rule (not a generic issuer failure) says what went wrong.
        let contosoIssuer = "\(Self.host)/\(Self.contoso)/v2.0"
        try rule(.id(Self.contoso)).checkDiscoveryIssuer(contosoIssuer)
        #expect(rule(.id(Self.contoso)).expectedIssuer(discoveryIssuer: contosoIssuer, tid: Self.contoso) == contosoIssuer)
    }

    @Test("a discovery document that cannot be Microsoft's for the tenant is provider-not-configured")
    func discoveryIssuerRefused() {
        let cases: [(MicrosoftTenant, String)] = [
            (.common, "\(Self.host)/\(Self.contoso)/v2.0"), (.organizations, "https://evil.example/{tenantid}/v2.0"),
            (.consumers, "\(Self.host)/\(Self.contoso)/v2.0"), (.id(Self.contoso), "\(Self.host)/\(Self.fabrikam)/v2.0"),
            (.id(Self.contoso), "\(Self.host)/{tenantid}/v2.0"), (.domain("contoso.com"), "\(Self.host)/{tenantid}/v2.0"),
            (.common, "\(Self.host)/{tenantid}/v2.0/extra"), (.common, "\(Self.host)/{tenantid}"),
        ]
        for (tenant, issuer) in cases {
            #expect(throws: AuthError.self, "\(tenant) \(issuer)") { try rule(tenant).checkDiscoveryIssuer(issuer) }
            #expect((try? rule(tenant).checkDiscoveryIssuer(issuer)) == nil)
        }
        #expect((try? rule(.consumers).checkDiscoveryIssuer("\(Self.host)/\(Self.personal)/v2.0")) != nil)
        #expect((try? rule(.domain("contoso.com")).checkDiscoveryIssuer("\(Self.host)/\(Self.contoso)/v2.0")) != nil)
    }

    @Test(
        "each tenant rule accepts its tenants and refuses the others with tenant-id-mismatch",
        arguments: [
            (MicrosoftTenant.common, contoso, true), (.common, personal, true),
            (.organizations, contoso, true), (.organizations, personal, false),
            (.consumers, personal, true), (.consumers, contoso, false),
            (.id(contoso), contoso, true), (.id(contoso), fabrikam, false), (.id(contoso), personal, false),
            (.domain("contoso.com"), contoso, true), (.domain("contoso.com"), fabrikam, false),
        ])
    func tenantRules(tenant: MicrosoftTenant, tid: String, accepted: Bool) {
        let discoveryIssuer =
            switch tenant {
            case .common, .organizations, .consumers: "\(Self.host)/{tenantid}/v2.0"
            default: "\(Self.host)/\(Self.contoso)/v2.0"
            }
        do {
            try rule(tenant).checkTenant(tid: tid, discoveryIssuer: discoveryIssuer)
            #expect(accepted, "\(tenant) accepted \(tid)")
        } catch let error as AuthError {
            #expect(!accepted, "\(tenant) refused \(tid): \(error)")
            #expect(error.code == .tenantIDMismatch)
            #expect(error.details["tenantId"] == .string(tid))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    func claims(_ values: [String: String]) -> IDTokenClaims { IDTokenClaims(raw: values.mapValues(JSONValue.string)) }

    @Test("the federated id comes from oid: a personal account's last 16 hex digits, a work account's oid as is; never sub")
    func federatedIDs() throws {
        let provider = try MicrosoftProvider(id: ProviderID(parsing: "microsoft"), config: ProviderConfig(id: "microsoft.com"))
        #expect(
            try provider.federatedID(from: claims(["oid": "00000000-0000-0000-4b2e-abcdef012345", "sub": "pairwise-sub"]))
                == "4b2eabcdef012345")
        #expect(
            try provider.federatedID(from: claims(["oid": "a1b2c3d4-0000-4000-8000-1234567890AB", "sub": "pairwise-sub"]))
                == "a1b2c3d4-0000-4000-8000-1234567890ab")
        #expect(throws: AuthError.self) { try provider.federatedID(from: self.claims(["sub": "pairwise-sub"])) }
        #expect(throws: AuthError.self) { try provider.federatedID(from: self.claims(["oid": "not-a-guid", "sub": "s"])) }
        let profile = provider.profile(
            from: claims(["oid": "a1b2c3d4-0000-4000-8000-1234567890ab", "email": "m@contoso.com", "name": "M"]))
        #expect(
            profile.email == "m@contoso.com" && !profile.emailVerified && profile.photoURL == nil, "Microsoft emails are never verified")
    }

    @Test("defaults: scopes, the http://localhost redirect URI, Graph scopes with or without the Graph host")
    func defaults() throws {
        let provider = try MicrosoftProvider(id: ProviderID(parsing: "microsoft"), config: ProviderConfig(id: "microsoft.com"))
        #expect(provider.defaultScopes == ["openid", "profile", "email", "offline_access"])
        #expect(try provider.defaultRedirectURI(host: "127.0.0.1", port: 51234).absoluteString == "http://localhost:51234")
        #expect(provider.scopes(["openid", "User.Read"], cover: ["https://graph.microsoft.com/user.read"]))
        #expect(!provider.scopes(["openid", "Mail.Read"], cover: ["https://graph.microsoft.com/User.Read"]))
        #expect(provider.profilePhoto?.url.absoluteString == "https://graph.microsoft.com/v1.0/me/photo/$value")
        let session = TokenSet(
            accessToken: "a", expiresAt: nil, refreshToken: "r", idToken: nil, scopes: ["User.Read", "profile", "openid", "email"])
        #expect(provider.refreshScopes(session: session, asked: []) == ["openid", "User.Read", "profile", "email", "offline_access"])
        #expect(
            provider.refreshScopes(session: session, asked: ["https://graph.microsoft.com/.default"]) == [
                "https://graph.microsoft.com/.default", "offline_access",
            ])
    }

    @Test("AADSTS codes from the token endpoint get their own advice; the description's first line only is shown")
    func aadstsAdvice() throws {
        let body = Data(
            #"{"error":"invalid_grant","error_description":"AADSTS70008: The provided authorization code or refresh token has expired due to inactivity.\r\nTrace ID: 0b4c\r\nCorrelation ID: 9a1e\r\nTimestamp: 2026-11-22 15:04:05Z","error_codes":[70008]}"#
                .utf8)
        let provider = try MicrosoftProvider(id: ProviderID(parsing: "microsoft"), config: ProviderConfig(id: "microsoft.com"))
        #expect {
            try TokenResponse.parse(
                HTTPResponse(status: 400, body: body), host: "login.microsoftonline.com", nextStep: provider.nextStep(for:))
        } throws: { error in
            let error = error as! AuthError
            return error.code == .invalidCredential && error.message.contains("AADSTS70008: The provided authorization code")
                && !error.message.contains("Trace ID") && error.message.parts.contains(.command(.login, ["microsoft"]))
                && error.details["errorCodes"] == [.number(70008)]
        }
        #expect(
            MicrosoftErrorCodes.code(of: OAuthErrorResponse(error: "invalid_client", errorDescription: "AADSTS7000218: body")) == 7_000_218)
        #expect(MicrosoftErrorCodes.nextStep(for: OAuthErrorResponse(error: "x", errorCodes: [50011]))?.contains("redirect URI") == true)
    }
}
