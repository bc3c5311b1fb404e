import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// A browser that first sends stray and hostile requests to the listener, then the real redirect.
struct HostileThenRealBrowser: BrowserLauncher {
    func open(_ startURL: URL) -> Bool {
        Task.detached {
            // The provider in memory, the listener through its real socket.
            let transport = InMemoryNetwork()
            // The one-time start URL redirects to the provider.
            guard let start = try? await transport.send(HTTPRequest(url: startURL)),
                let url = start.header("Location").flatMap(URL.init(string:)),
                let response = try? await transport.send(HTTPRequest(url: url)), let location = response.header("Location"),
                let redirect = URL(string: location), var components = URLComponents(url: redirect, resolvingAgainstBaseURL: false)
            else { return }
            let base = "http://\(redirect.host!):\(redirect.port!)"
            for stray in ["/favicon.ico", "/", "/callback", "/callback?code=forged&state=forged", "/start/guessed", "/start/"] {
                _ = try? await transport.send(HTTPRequest(url: URL(string: base + stray)!))
            }
            _ = try? await transport.send(
                HTTPRequest(
                    method: "POST", url: URL(string: base + "/callback")!, headers: ["Content-Type": "text/plain"], body: Data("x".utf8)))
            // Raw junk on a socket.
            _ = try? await transport.send(HTTPRequest(method: "BREW", url: URL(string: base + "/callback")!))
            components.queryItems = components.queryItems
            _ = try? await transport.send(HTTPRequest(url: components.url!))
        }
        return true
    }
}

@Suite("Browser sign-in against the in-process provider", .serialized)
struct SignInFlowTests {
    let provider: FakeIdentityProvider

    init() throws { provider = try FakeIdentityProvider() }

    /// A sign-in expected to succeed: it ends as soon as the redirect comes, so its timeout
    /// only bounds a failure. 60 s, not 10: the first tests of a full run share two cores with
    /// a hundred others generating their RSA keys, and a redirect took over 10 s to come.
    func signIn(_ test: TestEnvironment, timeout: TimeInterval = 60, parameters: [(String, String)] = []) async throws -> SignIn.Output {
        try await test.signIn().run(
            .init(
                providerID: try ProviderID(parsing: "oidc.fake"),
                options: FlowOptions(parameters: parameters, timeout: timeout)))
    }

    func expectFailure(_ code: AuthError.Code, _ test: TestEnvironment, timeout: TimeInterval = 10, parameters: [(String, String)] = [])
        async
    {
        do {
            _ = try await signIn(test, timeout: timeout, parameters: parameters)
            Issue.record("sign-in succeeded; expected \(code)")
        } catch let error as AuthError {
            #expect(error.code == code, "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(test.keystore.writes == 0, "a failed sign-in must not change the keystore")
    }

    @Test("a sign-in through the real listener creates a user with the provider's identity")
    func signInCreatesUser() async throws {
        let test = try await TestEnvironment(provider: provider)
        let output = try await signIn(test)
        #expect(output.isNewUser)
        #expect(output.user.providerData.first?.federatedID == "248289761001")
        #expect(output.user.email == "ada@example.com")
        #expect(output.user.uid.count >= 20)
        let request = provider.lastAuthorizationRequest
        #expect(request["code_challenge_method"] == "S256")
        #expect(request["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true)
        #expect(request["scope"] == "openid profile email")
        #expect((request["state"]?.count ?? 0) >= 22 && request["nonce"] != nil)
        let again = try await signIn(test)
        #expect(!again.isNewUser && again.user.uid == output.user.uid)
    }

    @Test("stray requests, junk and a forged state on the listener do not end or break the flow")
    func strayRequests() async throws {
        let test = try await TestEnvironment(provider: provider, browser: HostileThenRealBrowser())
        let output = try await signIn(test)
        #expect(output.isNewUser)
    }

    @Test("a redirect with the wrong state never completes: the flow times out with web-context-cancelled")
    func wrongStateTimesOut() async throws {
        let clock = ManualClock()
        // Once the forged redirect was answered (and did not end the wait), the time runs out.
        let browser = FollowingBrowser(
            rewriteRedirect: { url in URL(string: url.absoluteString.replacingOccurrences(of: "state=", with: "state=x"))! },
            afterRedirect: { clock.advance(by: 2) })
        await expectFailure(
            .webContextCancelled, try await TestEnvironment(provider: provider, browser: browser, clock: clock), timeout: 2)
    }

    @Test("access_denied with the right state is invalid-credential")
    func accessDenied() async throws {
        provider.update {
            $0.authorizeError = "access_denied"; $0.authorizeErrorDescription = "user said no"
        }
        await expectFailure(.invalidCredential, try await TestEnvironment(provider: provider))
    }

    @Test("an ID token signed with an unpublished key is refused")
    func badSignature() async throws {
        provider.update { $0.signWithUnpublishedKey = true }
        await expectFailure(.invalidCredential, try await TestEnvironment(provider: provider))
    }

    @Test("hostile ID tokens are refused", arguments: 0..<5)
    func hostileTokens(index: Int) async throws {
        provider.update { behaviour in
            switch index {
            case 0: behaviour.idTokenIssuer = "http://evil.example"
            case 1: behaviour.idTokenAudience = .string("someone-else")
            case 2: behaviour.idTokenNonce = "replayed-nonce"
            case 3: behaviour.signing = .hs256WithPublicKey
            default: behaviour.signing = .none
            }
        }
        await expectFailure(.invalidCredential, try await TestEnvironment(provider: provider))
    }

    @Test("an authorization response naming another issuer is refused (mix-up)")
    func mixUp() async throws {
        provider.update { $0.issuerOnRedirect = "https://other-idp.example" }
        await expectFailure(.invalidCredential, try await TestEnvironment(provider: provider))
    }

    @Test("a discovery document naming another issuer fails before the browser opens")
    func discoveryMismatch() async throws {
        provider.update { $0.discoveryIssuer = "https://impostor.example" }
        await expectFailure(.providerNotConfigured, try await TestEnvironment(provider: provider))
        #expect(provider.count("authorize") == 0)
    }

    @Test("a reserved custom parameter fails before the browser opens")
    func reservedParameter() async throws {
        await expectFailure(.invalidArgument, try await TestEnvironment(provider: provider), parameters: [("redirect_uri", "http://evil")])
        #expect(provider.count("authorize") == 0 && provider.count("discovery") == 0)
    }

    @Test(
        "a token endpoint answering HTML, a 5xx or a redirect is network-request-failed",
        arguments: [
            HTTPResponse(status: 500, headers: ["Content-Type": "text/html"], body: Data("<html>down</html>".utf8)),
            HTTPResponse(status: 302, headers: ["Location": "http://127.0.0.1:1/elsewhere"]),
        ])
    func tokenEndpointBroken(response: HTTPResponse) async throws {
        provider.update { $0.tokenEndpointOverride = response }
        await expectFailure(.networkRequestFailed, try await TestEnvironment(provider: provider))
    }

    @Test("the verbose log shows no secret")
    func noSecretsInProgress() async throws {
        let clock = ManualClock()
        let test = try await TestEnvironment(provider: provider, browser: NoOpenBrowser { clock.advance(by: 1) }, clock: clock)
        await expectFailure(.webContextCancelled, test, timeout: 1)
        let text = test.terminal.lines.joined(separator: "\n")
        #expect(test.terminal.events.contains { if case .openURL = $0 { true } else { false } }, "with no browser, the URL is shown")
        #expect(!text.contains("code_verifier"))
    }
}

struct NoOpenBrowser: BrowserLauncher {
    /// What happens while nobody opens the URL (a test lets the time run out).
    var meanwhile: @Sendable () -> Void = {}

    func open(_ url: URL) -> Bool {
        meanwhile()
        return false
    }
}

@Suite("Tokens: cache, refresh, rotation, revocation", .serialized)
struct TokenRefreshTests {
    let provider: FakeIdentityProvider

    init() throws { provider = try FakeIdentityProvider() }

    func signedIn(clock: any Clock = SystemClock()) async throws -> TestEnvironment {
        let test = try await TestEnvironment(provider: provider, clock: clock)
        _ = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "oidc.fake"), options: FlowOptions(timeout: 60)))
        return test
    }

    @Test("a valid cached token is returned without any request to the provider")
    func hotPath() async throws {
        let test = try await signedIn()
        let before = (provider.count("token"), provider.count("discovery"), test.keystore.writes)
        let output = try await test.tokenRefresh().run(.init())
        #expect(!output.refreshed)
        #expect((provider.count("token"), provider.count("discovery"), test.keystore.writes) == before)
        #expect(output.token.hasPrefix("at-"))
    }

    @Test("a token expiring within --min-ttl is refreshed, and the rotated refresh token replaces the old one")
    func refreshRotates() async throws {
        let test = try await signedIn()
        let old = try #require(test.keystore.state.currentUser?.providerData.first?.tokens)
        let output = try await test.tokenRefresh().run(.init(minimumTTL: 7200))
        #expect(output.refreshed && output.token != old.accessToken)
        let new = try #require(test.keystore.state.currentUser?.providerData.first?.tokens)
        #expect(new.refreshToken != old.refreshToken && new.refreshToken != nil)
        #expect(provider.count("refresh") == 1)
        // The old refresh token is dead at the provider; the stored one works.
        _ = try await test.tokenRefresh().run(.init(forceRefresh: true))
        #expect(provider.count("refresh") == 2)
    }

    @Test("a refresh without a new refresh token keeps the old one")
    func refreshKeepsToken() async throws {
        let test = try await signedIn()
        provider.update { $0.rotateRefreshTokens = false }
        let old = test.keystore.state.currentUser?.providerData.first?.tokens?.refreshToken
        _ = try await test.tokenRefresh().run(.init(forceRefresh: true))
        #expect(test.keystore.state.currentUser?.providerData.first?.tokens?.refreshToken == old)
    }

    @Test("a refreshed ID token for another subject is refused and nothing is stored")
    func refreshedSubjectChanges() async throws {
        let test = try await signedIn()
        provider.update { $0.refreshedSubject = "someone-else" }
        let before = test.keystore.state
        await #expect { try await test.tokenRefresh().run(.init(forceRefresh: true)) } throws: {
            ($0 as? AuthError)?.code == .invalidCredential
        }
        #expect(test.keystore.state == before)
    }

    @Test("invalid_grant on refresh is invalid-credential and tells to sign in again; only the needs-sign-in mark is stored, once")
    func refreshRefused() async throws {
        let clock = RunningClock()
        let test = try await signedIn(clock: clock)
        provider.update { $0.refreshError = "invalid_grant" }
        let before = test.keystore.state
        await #expect { try await test.tokenRefresh().run(.init(forceRefresh: true)) } throws: {
            guard let error = $0 as? AuthError else { return false }
            return error.code == .invalidCredential && error.message.parts.contains(.command(.login, ["oidc.fake"]))
        }
        let marked = test.keystore.state
        #expect(marked.users.first?.providerData.first?.tokens?.needsSignInSince != nil, "the refusal is remembered")
        var unmarked = marked
        unmarked.users[0].providerData[0].tokens?.needsSignInSince = nil
        #expect(unmarked == before, "and nothing else changed: the tokens are as they were")
        clock.advance(by: 2)
        _ = try? await test.tokenRefresh().run(.init(forceRefresh: true))
        #expect(test.keystore.state == marked, "a second refusal keeps the first one's time")
    }

    @Test("a refresh that cannot give what was asked still keeps the rotated refresh token")
    func rotatedTokenKeptWhenIDTokenMissing() async throws {
        provider.update { $0.idTokenExpiresIn = -10 }  // expired, though within the validator's 5-minute skew
        let test = try await signedIn()
        provider.update { $0.idTokenOnRefresh = false }
        let old = test.keystore.state.currentUser?.providerData.first?.tokens?.refreshToken
        await #expect { try await test.tokenRefresh().run(.init(idToken: true)) } throws: {
            ($0 as? AuthError)?.code == .invalidCredential
        }
        let kept = test.keystore.state.currentUser?.providerData.first?.tokens?.refreshToken
        #expect(kept != nil && kept != old, "the provider rotated the refresh token; losing it would end the session")
        #expect(try await test.tokenRefresh().run(.init(forceRefresh: true)).refreshed)
    }

    @Test("--id-token returns the ID token")
    func idToken() async throws {
        let test = try await signedIn()
        let output = try await test.tokenRefresh().run(.init(idToken: true))
        #expect(output.isIDToken && output.token.split(separator: ".").count == 3)
    }

    @Test("no current user is no-current-user")
    func noUser() async throws {
        let test = try await TestEnvironment(provider: provider)
        await #expect { try await test.tokenRefresh().run(.init()) } throws: {
            ($0 as? AuthError)?.code == .noCurrentUser
        }
    }

    @Test("signout --revoke revokes the refresh token at the provider and drops the tokens")
    func signOutRevokes() async throws {
        let test = try await signedIn()
        let refreshToken = try #require(test.keystore.state.currentUser?.providerData.first?.tokens?.refreshToken)
        let output = try await test.signOut().run(.init(revoke: true))
        #expect(output.revocations.map(\.result) == [.revoked])
        #expect(provider.revoked == [refreshToken])
        #expect(test.keystore.state.currentUID == nil)
        #expect(test.keystore.state.users.count == 1)
    }

    @Test("signout --revoke reports a provider without revocation and still signs out")
    func revocationNotSupported() async throws {
        provider.update { $0.revocationSupported = false }
        let test = try await signedIn()
        let output = try await test.signOut().run(.init(revoke: true))
        #expect(output.revocations.map(\.result) == [.notSupported])
        #expect(test.keystore.state.currentUID == nil)
    }
}
