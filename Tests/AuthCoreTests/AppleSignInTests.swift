import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Sign in with Apple against the fake Apple: form_post, hashed nonce, client-secret JWT,
/// the first-time name, private relay and consent, revocation.
@Suite("Sign in with Apple", .serialized)
struct AppleSignInTests {
    let apple: FakeApple

    init() throws { apple = try FakeApple() }

    let browser = CredentialSource.interactive(FlowOptions(timeout: 60))
    var appleID: ProviderID { try! ProviderID(parsing: "apple") }

    func login(_ test: TestEnvironment, _ id: ProviderID? = nil) async throws -> SignIn.Output {
        try await test.signIn().run(.init(providerID: id ?? appleID, source: browser))
    }

    @Test("the provider's rules: nonce hashing, form_post with name or email, private relay, string booleans, the user field")
    func providerRules() throws {
        let provider = try AppleProvider(id: appleID, config: ProviderConfig(id: "apple.com"))
        #expect(provider.issuer == "https://appleid.apple.com")
        #expect(provider.expectedNonce(forRawNonce: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(provider.responseMode(for: ["openid", "name", "email"]) == "form_post")
        #expect(provider.responseMode(for: ["openid", "email"]) == "form_post")
        #expect(provider.responseMode(for: ["openid"]) == nil)
        #expect(provider.documentedMetadata?.revocationEndpoint?.absoluteString == "https://appleid.apple.com/auth/revoke")
        #expect(provider.documentedMetadata?.tokenEndpoint.absoluteString == "https://appleid.apple.com/auth/token")

        let relay = provider.profile(
            from: IDTokenClaims(raw: ["email": "x@privaterelay.appleid.com", "email_verified": "true", "is_private_email": "true"]))
        #expect(relay.emailVerified && relay.isPrivateEmail == true)
        let byDomainOnly = provider.profile(from: IDTokenClaims(raw: ["email": "Y@PrivateRelay.AppleID.com", "email_verified": true]))
        #expect(byDomainOnly.isPrivateEmail == true && byDomainOnly.emailVerified)
        let plain = provider.profile(
            from: IDTokenClaims(raw: ["email": "ada@example.com", "email_verified": "false", "is_private_email": false]))
        #expect(!plain.emailVerified && plain.isPrivateEmail == nil)

        let named = provider.profile(
            from: IDTokenClaims(raw: ["email": "ada@example.com"]),
            callbackFields: ["user": #"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"someone@else.example"}"#])
        #expect(named.displayName == "Ada Lovelace")
        #expect(named.email == "ada@example.com", "the user field is never a source of identity or email")
        #expect(provider.profile(from: IDTokenClaims(raw: [:]), callbackFields: ["user": "not json"]).displayName == nil)
    }

    @Test("a sign-in: form_post to the listener, hashed nonce, a client secret Apple accepts, the name from the first authorization")
    func signIn() async throws {
        let test = try await TestEnvironment(apple: apple)
        let output = try await login(test)
        let request = apple.lastAuthorizationRequest
        #expect(request["response_mode"] == "form_post" && request["scope"] == "openid name email")
        #expect(request["nonce"]?.count == 64 && request["nonce"]?.allSatisfy(\.isHexDigit) == true, "SHA-256 hex")
        #expect(output.isNewUser && output.user.displayName == "Ada Lovelace")
        #expect(output.user.email == "ada@example.com" && output.user.emailVerified, "string booleans understood")
        #expect(output.user.providerData[0].federatedID == apple.behaviour.subject)
        #expect(output.user.providerData[0].issuer == apple.issuer)
        let secret = try #require(apple.acceptedClientSecrets.first)
        #expect(
            secret["iss"] == .string(apple.teamID) && secret["sub"] == .string(apple.clientID) && secret["aud"] == .string(apple.issuer))

        // Later sign-ins bring no name, and a name sent again never replaces the stored one.
        apple.behaviour.firstName = "Someone"
        let again = try await login(test)
        #expect(!again.isNewUser && again.user.displayName == "Ada Lovelace")
    }

    @Test("refresh and revocation use a fresh client secret each time")
    func refreshAndRevoke() async throws {
        let test = try await TestEnvironment(apple: apple)
        _ = try await login(test)
        let refreshed = try await test.tokenRefresh().run(.init(forceRefresh: true))
        #expect(refreshed.refreshed)
        let output = try await test.signOut().run(.init(revoke: true))
        #expect(output.revocations.map(\.result) == [.revoked])
        #expect(apple.revoked.count == 1 && apple.acceptedClientSecrets.count == 3)
    }

    @Test("a key file others can read is refused before the browser opens, with the chmod to run")
    func unsafeKeyFile() async throws {
        let test = try await TestEnvironment(apple: apple, keyFileMode: 0o644)
        await #expect { _ = try await login(test) } throws: {
            let error = $0 as? AuthError
            return error?.code == .providerNotConfigured && error?.message.contains("chmod 600") == true
        }
        #expect(apple.count("authorize") == 0 && test.keystore.writes == 0)
    }

    @Test("an https redirect page that forwards the POST to the listener (fixed port), and its refusals")
    func forwardingPage() async throws {
        // A port that was free a moment ago (a random one may be another socket's).
        let probe = try RedirectListener(host: "127.0.0.1", port: 0, peers: ProcNetTCPPeerLookup())
        let port = probe.port
        probe.close()
        let page = "https://forwarder.example/authctl/callback"
        let forwarding = FollowingBrowser { url in
            url.absoluteString == page ? URL(string: "http://127.0.0.1:\(port)/authctl/callback")! : url
        }
        let test = try await TestEnvironment(apple: apple, redirectURI: page, listenAddress: "127.0.0.1:\(port)", browser: forwarding)
        let output = try await login(test)
        #expect(output.isNewUser)
        #expect(apple.lastAuthorizationRequest["redirect_uri"] == page)

        let noPort = try await TestEnvironment(apple: apple, redirectURI: page)
        await #expect { _ = try await login(noPort) } throws: {
            ($0 as? AuthError)?.code == .invalidArgument && ($0 as? AuthError)?.message.names(input: .listenAddress) == true
        }
        let plainHTTP = try await TestEnvironment(
            apple: apple, redirectURI: "http://forwarder.example/cb", listenAddress: "127.0.0.1:\(port)")
        await #expect { _ = try await login(plainHTTP) } throws: { ($0 as? AuthError)?.code == .invalidArgument }
    }
}

/// docs/apple.md's consent rule in its three cases, through real flows: a user of an OpenID
/// Connect provider links a private-relay Apple identity, and the other way round.
@Suite("Private-relay consent", .serialized)
struct AppleConsentTests {
    let apple: FakeApple
    let oidc: FakeIdentityProvider

    init() throws {
        apple = try FakeApple()
        apple.behaviour.privateRelay = true
        oidc = try FakeIdentityProvider()
    }

    /// Apple and oidc.work configured; signed in with `first`.
    func environment(terminal: RecordingTerminal, first: String) async throws -> TestEnvironment {
        let test = try await TestEnvironment(apple: apple, terminal: terminal)
        let oidc = self.oidc
        try await test.configStore.update { file in
            file.providers["oidc.work"] = ProviderConfig(id: "oidc.work", clientID: oidc.clientID, issuer: oidc.issuer)
        }
        _ = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: first), source: .interactive(FlowOptions(timeout: 60))))
        return test
    }

    func link(_ test: TestEnvironment, _ provider: String, consent: Bool = false) async throws -> Link.Output {
        try await test.link().run(
            .init(providerID: try ProviderID(parsing: provider), source: .interactive(FlowOptions(timeout: 60)), consent: consent))
    }

    func expectConsentRequired(_ test: TestEnvironment, _ provider: String) async {
        let before = test.keystore.state
        await #expect { _ = try await link(test, provider) } throws: {
            ($0 as? AuthError)?.code == .consentRequired
        }
        #expect(test.keystore.state == before, "nothing changes")
    }

    @Test("without a terminal and without --consent: consent-required, nothing changes")
    func noTerminal() async throws {
        let test = try await environment(terminal: RecordingTerminal(), first: "oidc.work")
        await expectConsentRequired(test, "apple")
        #expect(apple.count("authorize") == 1, "the relay is only known after Apple's sign-in")
    }

    @Test("on a terminal: a yes links, a no refuses")
    func terminal() async throws {
        let terminal = RecordingTerminal(interactive: true, answers: [false, true])
        let test = try await environment(terminal: terminal, first: "oidc.work")
        await expectConsentRequired(test, "apple")
        #expect(terminal.lines.contains { $0.hasPrefix("? Link apple.com") && $0.contains("private relay") })
        let linked = try await link(test, "apple")
        #expect(linked.user.providerData.map(\.providerID) == ["oidc.work", "apple.com"])
    }

    @Test("--consent links without asking; the other direction needs it too, and fails before the browser without a terminal")
    func flagAndOtherDirection() async throws {
        let test = try await environment(terminal: RecordingTerminal(), first: "oidc.work")
        let linked = try await link(test, "apple", consent: true)
        #expect(linked.user.providerData.count == 2)

        let reverse = try await environment(terminal: RecordingTerminal(), first: "apple")
        let authorizations = oidc.count("authorize")
        await expectConsentRequired(reverse, "oidc.work")
        #expect(oidc.count("authorize") == authorizations, "refused before the browser opens")
        _ = try await link(reverse, "oidc.work", consent: true)
    }
}
