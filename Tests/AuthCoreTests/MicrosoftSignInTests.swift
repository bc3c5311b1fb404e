import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Sign-ins through the real listener against the fake Microsoft identity platform.
@Suite("Microsoft sign-in against the fake Microsoft", .serialized)
struct MicrosoftSignInTests {
    let microsoft: FakeMicrosoft

    init() throws { microsoft = try FakeMicrosoft() }

    func signIn(_ test: TestEnvironment, tenant: String? = nil, scopes: [String] = [], parameters: [(String, String)] = [])
        async throws -> SignIn.Output
    {
        try await test.signIn().run(
            .init(
                providerID: try ProviderID(parsing: "microsoft"),
                options: FlowOptions(scopes: scopes, parameters: parameters, timeout: 60, tenant: tenant)))
    }

    func expectFailure(_ code: AuthError.Code, _ test: TestEnvironment, tenant: String? = nil, timeout: TimeInterval = 10) async {
        do {
            _ = try await test.signIn().run(
                .init(providerID: try ProviderID(parsing: "microsoft"), options: FlowOptions(timeout: timeout, tenant: tenant)))
            Issue.record("sign-in succeeded; expected \(code)")
        } catch let error as AuthError {
            #expect(error.code == code, "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(test.keystore.writes == 0, "a failed sign-in must not change the keystore")
    }

    @Test("a work account signs in through common: tenant issuer, oid as the federated id, Graph profile, http://localhost redirect")
    func workAccount() async throws {
        let test = try await TestEnvironment(microsoft: microsoft)
        let output = try await signIn(test)
        let identity = try #require(output.user.providerData.first)
        #expect(identity.providerID == "microsoft.com")
        #expect(identity.issuer == microsoft.issuer(tenantID: FakeMicrosoft.contosoTenantID))
        #expect(identity.federatedID == FakeMicrosoft.Account.work.objectID)
        #expect(output.user.email == "megan.bowen@contoso.com", "Graph's mail completes the ID token that had no email")
        #expect(output.user.displayName == "Megan Bowen" && output.user.photoURL == nil && !output.user.emailVerified)
        #expect(microsoft.count("me") == 1)
        let request = microsoft.lastAuthorizationRequest
        #expect(request["scope"] == "openid profile email offline_access")
        #expect(request["redirect_uri"]?.hasPrefix("http://localhost:") == true)
        #expect(request["code_challenge_method"] == "S256")
        #expect(identity.tokens?.refreshToken != nil)
    }

    @Test("a personal account: federated id from the last 16 hex digits of oid, never sub; same uid on the next sign-in")
    func personalAccount() async throws {
        microsoft.update { $0.account = .personal }
        let test = try await TestEnvironment(microsoft: microsoft, tenant: "consumers")
        let output = try await signIn(test)
        let identity = try #require(output.user.providerData.first)
        #expect(identity.federatedID == "4b2eabcdef012345")
        #expect(identity.issuer == microsoft.issuer(tenantID: MicrosoftTenant.personalAccountsTenantID))
        let again = try await signIn(test, tenant: "common")
        #expect(!again.isNewUser && again.user.uid == output.user.uid, "common and consumers give the same identity")
    }

    @Test(
        "each tenant form signs in the accounts it accepts",
        arguments: [
            ("common", FakeMicrosoft.Account.work), ("common", .personal), ("organizations", .work), ("consumers", .personal),
            (FakeMicrosoft.contosoTenantID, .work), ("contoso.onmicrosoft.com", .work), ("CONTOSO.COM", .work),
        ])
    func tenantsAccepted(tenant: String, account: FakeMicrosoft.Account) async throws {
        microsoft.update { $0.account = account }
        let test = try await TestEnvironment(microsoft: microsoft)
        let output = try await signIn(test, tenant: tenant)
        #expect(output.isNewUser)
        #expect(output.user.providerData.first?.issuer == microsoft.issuer(tenantID: account.tenantID))
    }

    @Test("with the consumers discovery issuer as a template (docs/microsoft.md's reading) the rules hold the same")
    func consumersTemplate() async throws {
        microsoft.update {
            $0.consumersIssuerIsTemplate = true
            $0.account = .personal
        }
        let test = try await TestEnvironment(microsoft: microsoft, tenant: "consumers")
        _ = try await signIn(test)
        microsoft.update {
            $0.account = .work
            $0.enforceTenantRules = false
        }
        await expectFailure(.tenantIDMismatch, try await TestEnvironment(microsoft: microsoft, tenant: "consumers"))
    }

    @Test(
        "a token from a tenant the rule refuses is tenant-id-mismatch (exit 17) and nothing is stored",
        arguments: [
            ("organizations", FakeMicrosoft.Account.personal), ("consumers", .work), (FakeMicrosoft.contosoTenantID, .otherTenant),
            ("contoso.onmicrosoft.com", .otherTenant), (FakeMicrosoft.contosoTenantID, .personal),
        ])
    func tenantsRefused(tenant: String, account: FakeMicrosoft.Account) async throws {
        // The real service refuses these accounts itself; a provider (or a token substitution)
        // that lets them through must still be caught by authctl.
        microsoft.update {
            $0.account = account
            $0.enforceTenantRules = false
        }
        await expectFailure(.tenantIDMismatch, try await TestEnvironment(microsoft: microsoft, tenant: tenant))
    }

    @Test("the real service's own refusal (AADSTS50020 on the redirect) is invalid-credential with its description")
    func serviceRefusesAccount() async throws {
        microsoft.update { $0.account = .personal }
        let test = try await TestEnvironment(microsoft: microsoft, tenant: "organizations")
        do {
            _ = try await signIn(test)
            Issue.record("expected a refusal")
        } catch let error as AuthError {
            #expect(error.code == .invalidCredential && error.message.contains("AADSTS50020"), "\(error)")
        }
    }

    @Test(
        "hostile ID tokens: an iss that is not the tid's, a forged signature in another tenant, a missing tid",
        arguments: ["iss of another tenant", "tid differs from iss", "forged signature", "template issuer"])
    func hostileTokens(kind: String) async throws {
        microsoft.update { behaviour in
            switch kind {
            case "iss of another tenant": behaviour.idTokenIssuer = microsoft.issuer(tenantID: FakeMicrosoft.fabrikamTenantID)
            case "tid differs from iss": behaviour.idTokenTenantID = FakeMicrosoft.fabrikamTenantID
            case "forged signature":
                behaviour.account = .otherTenant
                behaviour.enforceTenantRules = false
                behaviour.signWithUnpublishedKey = true
            default: behaviour.idTokenIssuer = microsoft.issuer(tenantID: "{tenantid}")
            }
        }
        // A forged token from another tenant is invalid-credential, not a tenant mismatch.
        await expectFailure(.invalidCredential, try await TestEnvironment(microsoft: microsoft, tenant: FakeMicrosoft.contosoTenantID))
    }

    @Test("an unknown tenant is provider-not-configured with Microsoft's AADSTS90002 and what to do")
    func unknownTenant() async throws {
        let test = try await TestEnvironment(microsoft: microsoft, tenant: "nowhere.example.com")
        do {
            _ = try await signIn(test)
            Issue.record("expected a refusal")
        } catch let error as AuthError {
            #expect(error.code == .providerNotConfigured && error.message.contains("AADSTS90002") && error.message.names(input: .tenant))
        }
        #expect(microsoft.count("authorize") == 0, "the browser never opened")
    }

    @Test("--tenant with a bad form fails before discovery and the browser")
    func badTenantOption() async throws {
        let test = try await TestEnvironment(microsoft: microsoft)
        await expectFailure(.invalidArgument, test, tenant: "not a tenant")
        #expect(microsoft.count("discovery") == 0)
    }

    @Test("prompt, login_hint and domain_hint pass through; reserved parameters are refused before the browser opens")
    func customParameters() async throws {
        let test = try await TestEnvironment(microsoft: microsoft)
        _ = try await signIn(
            test, tenant: "organizations", scopes: ["Mail.Read", "Calendars.Read"],
            parameters: [("prompt", "consent"), ("login_hint", "meganb@contoso.onmicrosoft.com"), ("domain_hint", "contoso.com")])
        let request = microsoft.lastAuthorizationRequest
        #expect(request["prompt"] == "consent" && request["login_hint"] == "meganb@contoso.onmicrosoft.com")
        #expect(request["domain_hint"] == "contoso.com")
        #expect(request["scope"] == "openid profile email offline_access Mail.Read Calendars.Read")
        let authorizations = microsoft.count("authorize")
        for reserved in ["redirect_uri", "scope", "response_mode", "client_id", "code_challenge"] {
            do {
                _ = try await signIn(test, parameters: [(reserved, "x")])
                Issue.record("\(reserved) was accepted")
            } catch let error as AuthError {
                #expect(error.code == .invalidArgument && error.message.contains("'\(reserved)'"))
            }
        }
        #expect(microsoft.count("authorize") == authorizations)
    }

    @Test("without User.Read no Graph call is made; an unreachable Graph only warns")
    func graphOptional() async throws {
        microsoft.update { $0.graphScopes = [] }
        let test = try await TestEnvironment(microsoft: microsoft)
        let output = try await signIn(test)
        #expect(microsoft.count("me") == 0)
        #expect(output.user.email == nil && output.user.displayName == "Megan Bowen")

        microsoft.update { $0.graphScopes = ["User.Read"] }
        let unreachableGraph = try await TestEnvironment(
            config: ProviderConfig(
                id: "microsoft.com", clientID: microsoft.clientID, authorityHost: microsoft.host, graphHost: "http://127.0.0.1:1"))
        let warned = try await signIn(unreachableGraph)
        #expect(warned.user.displayName == "Megan Bowen")
        #expect(unreachableGraph.events.events == [.profileIncomplete(.graphUnreachable(endpoint: "127.0.0.1/v1.0/me"))])
    }

    func signedIn(tenant: String? = nil) async throws -> TestEnvironment {
        let test = try await TestEnvironment(microsoft: microsoft, tenant: tenant)
        _ = try await signIn(test)
        return test
    }

    @Test("token --scope: a refresh-token grant for another resource, cached per scope set; the rotated refresh token is kept")
    func scopedTokens() async throws {
        let test = try await signedIn()
        let refresh = test.tokenRefresh()
        let before = try #require(test.keystore.state.currentUser?.providerData.first?.tokens)
        let graph = try await refresh.run(.init(scopes: ["\(microsoft.host)/.default"]))
        #expect(graph.refreshed && graph.token != before.accessToken)
        let form = try #require(microsoft.tokenRequestForms.last)
        #expect(form["grant_type"] == "refresh_token" && form["scope"] == "\(microsoft.host)/.default offline_access")
        let api = try await refresh.run(.init(scopes: ["api://authctl-test-api/access_as_user"]))
        #expect(api.scopes == ["api://authctl-test-api/access_as_user"] && api.token != graph.token)

        let after = try #require(test.keystore.state.currentUser?.providerData.first?.tokens)
        #expect(after.accessToken == before.accessToken, "the session's own token stays")
        #expect(after.refreshToken != before.refreshToken && microsoft.liveRefreshTokens == [after.refreshToken!])
        #expect(after.additionalTokens?.count == 2)
        #expect(after.additionalTokens?["\(microsoft.host)/.default"]?.accessToken == graph.token)

        let tokenCalls = microsoft.count("token")
        let cached = try await refresh.run(.init(scopes: ["\(microsoft.host)/.default", "\(microsoft.host)/.default"]))
        #expect(cached.token == graph.token && !cached.refreshed && microsoft.count("token") == tokenCalls, "second call: no network")
        // The session's refresh keeps the other scopes' tokens, and sends scope (Microsoft requires it).
        let session = try await refresh.run(.init(forceRefresh: true))
        #expect(session.refreshed)
        #expect(microsoft.tokenRequestForms.last?["scope"] == "openid User.Read profile email offline_access")
        #expect(test.keystore.state.currentUser?.providerData.first?.tokens?.additionalTokens?.count == 2)
    }

    @Test("token --scope for scopes never consented shows AADSTS65001 with its advice and keeps the session")
    func consentRequired() async throws {
        let test = try await signedIn()
        let before = test.keystore.state
        do {
            _ = try await test.tokenRefresh().run(.init(scopes: ["Mail.Send"]))
            Issue.record("expected a refusal")
        } catch let error as AuthError {
            #expect(error.code == .invalidCredential && error.message.contains("AADSTS65001") && error.message.contains("prompt=consent"))
            #expect(!error.message.contains("Trace ID"))
        }
        #expect(test.keystore.state == before)
        do {
            _ = try await test.tokenRefresh().run(.init(idToken: true, scopes: ["User.Read"]))
            Issue.record("expected a refusal")
        } catch let error as AuthError {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test("a refresh after a --tenant sign-in goes to that tenant's authority and keeps the identity")
    func refreshAtIdentityTenant() async throws {
        let test = try await TestEnvironment(microsoft: microsoft, tenant: "consumers")
        microsoft.update { $0.account = .work }
        _ = try await signIn(test, tenant: "organizations")
        let refreshed = try await test.tokenRefresh().run(.init(forceRefresh: true))
        #expect(refreshed.refreshed)
        #expect(test.keystore.state.currentUser?.providerData.count == 1)
    }

    @Test("users photo: Graph's image bytes with the session's User.Read token; 404 ImageNotFound when there is none")
    func photo() async throws {
        let test = try await signedIn()
        let photo = try await test.userPhoto().run()
        #expect(photo.data == FakeMicrosoft.Account.work.photo && photo.contentType == "image/jpeg")
        #expect(microsoft.count("refresh") == 0, "the session's token may read the photo")
        #expect(test.keystore.state.currentUser?.photoURL == nil)

        microsoft.update { $0.account = .otherTenant }
        let other = try await signedIn()
        do {
            _ = try await other.userPhoto().run()
            Issue.record("expected no photo")
        } catch let error as AuthError {
            #expect(error.message.contains("no photo") && error.details["providerError"] == "ImageNotFound", "\(error)")
        }
    }

    @Test("graphHost moved in the configuration after the sign-in: users photo sends the token nowhere (the egress rule, issue 35)")
    func photoHostMoved() async throws {
        let test = try await signedIn()
        let other = try FakeMicrosoft()
        try await test.configStore.update { file in file.providers["microsoft.com"]?.graphHost = other.host }
        await #expect {
            _ = try await test.userPhoto().run()
        } throws: { error in
            let error = error as? AuthError
            return error?.code == .providerNotConfigured && error?.details["egress"] == "refused"
        }
        #expect(other.count("photo") == 0 && other.count("me") == 0)
    }

    @Test("users photo without User.Read in the session asks a Graph token for it first")
    func photoNeedsScopedToken() async throws {
        let test = try await signedIn()
        // A session whose token was for another resource.
        let state = test.keystore.state
        var changed = state
        changed.users[0].providerData[0].tokens?.scopes = ["api://authctl-test-api/access_as_user"]
        _ = try await test.keystore.update { $0 = changed }
        let photo = try await test.userPhoto().run()
        #expect(!photo.data.isEmpty && microsoft.count("refresh") == 1)
        #expect(test.keystore.state.currentUser?.providerData[0].tokens?.additionalTokens?["\(microsoft.host)/User.Read"] != nil)
    }

    @Test("the fake's device code endpoint: pending until approved, then tokens (RFC 8628 as Microsoft answers it)")
    func deviceCodeEndpoint() async throws {
        let transport = InMemoryNetwork()
        let url = URL(string: "\(microsoft.host)/organizations/oauth2/v2.0/devicecode")!
        let start = try await transport.send(.form(url, [("client_id", microsoft.clientID), ("scope", "openid profile offline_access")]))
        let body = try #require(JSONValue.object(from: start.body))
        let deviceCode = try #require(body["device_code"]?.stringValue)
        let token = URL(string: "\(microsoft.host)/organizations/oauth2/v2.0/token")!
        let grant = [
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("client_id", microsoft.clientID), ("device_code", deviceCode),
        ]
        let pending = try await transport.send(HTTPRequest.form(token, grant).handedOver())
        #expect(pending.status == 400 && JSONValue.object(from: pending.body)?["error"] == .string("authorization_pending"))
        microsoft.approveDeviceCode(try #require(body["user_code"]?.stringValue))
        let tokens = try TokenResponse.parse(try await transport.send(HTTPRequest.form(token, grant).handedOver()), host: "fake")
        #expect(tokens.idToken != nil && tokens.refreshToken != nil)
    }
}
