import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// What a provider or a network that lies can try (issue 12, items 6, 7, 8, 9, 11).
@Suite("Hostile providers and networks", .serialized)
struct NetworkHardeningTests {
    // MARK: Item 6: loopback is parsed, never a prefix

    @Test(
        "host names that only look like loopback are not loopback",
        arguments: [
            "127.attacker.example", "127.0.0.1.nip.io", "127.1", "127.0.0.1.", "::ffff:127.0.0.1", "[::ffff:127.0.0.1]",
            "localhost.evil", "localhost.", "evil.localhost", "127.0.0.256", "0127.0.0.1", "127.0.0.01", " 127.0.0.1", "::2",
            "[::1", "::1]", "::1%lo", "", "0.0.0.0", "[127.0.0.1]", "128.0.0.1",
        ])
    func notLoopback(_ host: String) {
        #expect(!EndpointPolicy.isLoopback(host: host))
    }

    @Test(
        "loopback addresses in any spelling the system parses are loopback",
        arguments: ["127.0.0.1", "127.0.0.2", "127.255.255.254", "::1", "[::1]", "0:0:0:0:0:0:0:1", "[0:0::1]", "localhost", "LOCALHOST"])
    func loopback(_ host: String) {
        #expect(EndpointPolicy.isLoopback(host: host))
    }

    @Test("plain http to a name that starts with 127. is refused, as for every other remote host")
    func httpToLookalikeRefused() {
        for text in ["http://127.attacker.example/", "http://127.0.0.1.nip.io/token", "http://localhost.evil/"] {
            #expect(throws: AuthError.self) { try EndpointPolicy.check(URL(string: text)!, what: "the endpoint") }
        }
        for text in ["http://127.0.0.1:8080/token", "http://[::1]:9/x", "http://localhost/", "https://127.attacker.example/"] {
            #expect(throws: Never.self) { try EndpointPolicy.check(URL(string: text)!, what: "the endpoint") }
        }
    }

    @Test("the listener, --listen-address and loopback redirect URIs still take every loopback spelling, and only those")
    func loopbackCallers() throws {
        for text in ["127.0.0.1:8400", "[::1]:8400", "localhost:0", "127.0.0.2:0", "[0:0:0:0:0:0:0:1]:0"] {
            #expect(throws: Never.self) { try ListenAddress(parsing: text) }
        }
        for text in ["127.attacker.example:80", "127.1:80", "localhost.:80", "[::ffff:127.0.0.1]:80"] {
            #expect(throws: AuthError.self) { try ListenAddress(parsing: text) }
        }
        for host in ["127.0.0.1", "::1", "[::1]", "localhost", "0:0:0:0:0:0:0:1"] {
            let listener = try RedirectListener(host: host, peers: ProcNetTCPPeerLookup())
            listener.close()
        }
        #expect(throws: AuthError.self) { try RedirectListener(host: "127.attacker.example", peers: ProcNetTCPPeerLookup()) }
        let implied = SignInSession.listenAddress(impliedBy: URL(string: "http://[::1]:8401/callback"))
        #expect(implied == ListenAddress(host: "::1", port: 8401))
        #expect(SignInSession.listenAddress(impliedBy: URL(string: "http://127.attacker.example:8401/cb")).port == 0)
        #expect(throws: AuthError.self) {
            try SignInSession.checkForwarding(
                URL(string: "http://127.attacker.example:8401/cb"), listenAddress: ListenAddress(host: "127.0.0.1", port: 8401))
        }
    }

    // MARK: Item 8: numbers from a provider

    static func tokenResponse(_ extra: [String: JSONValue], status: Int = 200) -> HTTPResponse {
        var body: [String: JSONValue] = ["access_token": "at-1", "token_type": "Bearer"]
        body.merge(extra) { $1 }
        return FakeHTTP.json(.object(body), status: status)
    }

    @Test(
        "a non-finite, negative or absurd expires_in is an unknown or bounded lifetime, never a date the keystore cannot hold",
        arguments: [
            JSONValue.string("NaN"), .string("nan"), .string("Infinity"), .string("-Infinity"), .string("-5"), .number(-5),
            .string("1e300"), .number(1e300), .string(String(repeating: "9", count: 100_000)), .string("0x10"), .string(""),
        ])
    func expiresInBounded(_ value: JSONValue) throws {
        let response = try TokenResponse.parse(Self.tokenResponse(["expires_in": value]), host: "idp.example")
        if let seconds = response.expiresIn {
            #expect(seconds.isFinite && seconds >= 1 && seconds <= 365 * 24 * 3600, "\(value) → \(seconds)")
        }
        if case .string("NaN") = value { #expect(response.expiresIn == nil) }
        if case .string("-5") = value { #expect(response.expiresIn == 1, "already expired: refreshed at the next use") }
        if case .string("Infinity") = value { #expect(response.expiresIn == nil, "not a decimal number") }
        if case .number(1e300) = value { #expect(response.expiresIn == 31_536_000.0) }
    }

    @Test("an error_codes number that does not fit an Int does not crash the parser")
    func errorCodesOverflow() throws {
        let response = FakeHTTP.json(
            .object(["error": "invalid_grant", "error_codes": .array([.number(1e300), .number(-1e300), .number(70008)])]), status: 400)
        #expect { _ = try TokenResponse.parse(response, host: "idp.example") } throws: { error in
            (error as? AuthError)?.details["errorCodes"] == .array([.number(70008)])
        }
    }

    @Test("a device authorization with an infinite or absurd interval and lifetime is bounded")
    func deviceNumbersBounded() throws {
        func parse(_ interval: JSONValue, _ expiresIn: JSONValue) throws -> DeviceAuthorizationResponse {
            try DeviceAuthorizationResponse.parse(
                FakeHTTP.json(
                    .object([
                        "device_code": "dc", "user_code": "ABCD", "verification_uri": "https://idp.example/device", "expires_in": expiresIn,
                        "interval": interval,
                    ])), host: "idp.example")
        }
        for (interval, expiresIn) in [
            (JSONValue.string("Infinity"), JSONValue.string("Infinity")), (.number(1e300), .number(1e300)), (.string("NaN"), .number(600)),
        ] {
            guard let parsed = try? parse(interval, expiresIn) else { continue }  // refusing is fine too
            #expect(parsed.interval.isFinite && parsed.interval >= 0 && parsed.interval <= 300, "\(interval)")
            #expect(parsed.expiresIn.isFinite && parsed.expiresIn <= 24 * 3600, "\(expiresIn)")
            var polling = DeviceTokenPolling(
                interval: parsed.interval, issuedAt: Date(), expiresIn: parsed.expiresIn, timeout: 300)
            _ = polling.next(after: OAuthErrorResponse(error: "slow_down"), now: Date())
        }
    }

    @Test("a keystore write that would not read back is refused and the file left as it was")
    func keystoreRoundTrip() async throws {
        let directory = NSTemporaryDirectory() + "authctl-roundtrip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keystore = FileKeystore(path: directory + "/keystore.json", random: SystemRandomSource(), clock: SystemClock())
        func user(_ uid: String, expiresAt: Date?) -> User {
            User(
                uid: uid, email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: Date(), lastSignInAt: Date(),
                lastAuthAt: Date(), lastProviderID: "oidc.fake",
                providerData: [
                    LinkedIdentity(
                        providerID: "oidc.fake", issuer: "https://idp.example", federatedID: uid, profile: Profile(), linkedAt: Date(),
                        tokens: TokenSet(accessToken: "at", expiresAt: expiresAt, refreshToken: "rt", idToken: nil, scopes: []))
                ])
        }
        try await keystore.update { $0 = AccountState(currentUID: "good", users: [user("good", expiresAt: Date())]) }
        let before = try #require(FileManager.default.contents(atPath: keystore.path))
        // NaN is written as year -4712, which no read accepts (infinite dates, by contrast,
        // come back as year 506713: odd, but readable).
        for poison in [Date(timeIntervalSinceReferenceDate: .nan), Date(timeIntervalSince1970: -1e12)] {
            await #expect { try await keystore.update { $0.users.append(user("poisoned", expiresAt: poison)) } } throws: {
                ($0 as? AuthError)?.code == .keystoreError
            }
            #expect(FileManager.default.contents(atPath: keystore.path) == before, "\(poison.timeIntervalSinceReferenceDate)")
            #expect(try keystore.read().users.count == 1)
        }
    }

    // MARK: Item 11: 200 with an OAuth error

    @Test("a token response of 200 with an error member is the provider's refusal, not a missing access token")
    func errorAt200() {
        let response = FakeHTTP.json(.object(["error": "invalid_grant", "error_description": "Bad\u{1B}[31m code"]), status: 200)
        #expect { _ = try TokenResponse.parse(response, host: "github.com") } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == .invalidCredential && error.message.contains("invalid_grant") && !error.message.contains("\u{1B}")
                && error.details["oauthError"] == "invalid_grant"
        }
        // Even beside an access token: the provider said no.
        #expect(throws: AuthError.self) {
            try TokenResponse.parse(Self.tokenResponse(["error": "access_denied"]), host: "github.com")
        }
        let device = FakeHTTP.json(.object(["error": "unauthorized_client"]), status: 200)
        #expect { _ = try DeviceAuthorizationResponse.parse(device, host: "github.com") } throws: {
            ($0 as? AuthError)?.code == .invalidCredential && ($0 as? AuthError)?.message.contains("unauthorized_client") == true
        }
    }

    @Test("device code polling against a provider that answers pending with 200 (GitHub) waits and signs in")
    func devicePendingAt200() async throws {
        let provider = try FakeIdentityProvider()
        provider.behaviour.oauthErrorStatus = 200
        provider.behaviour.devicePolls = ["authorization_pending", "slow_down", "approve"]
        let test = try await TestEnvironment(provider: provider, clock: FixedClock(Date()))
        let output = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "oidc.fake"), source: .interactive(FlowOptions(timeout: 300, mode: .deviceCode))))
        #expect(output.isNewUser && provider.count("device-poll") == 3)
    }

    @Test("a revocation answered 200 with an OAuth error is reported as failed, naming the error")
    func revocationErrorAt200() async throws {
        let provider = try FakeIdentityProvider()
        let test = try await TestEnvironment(provider: provider)
        _ = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "oidc.fake"), options: FlowOptions(timeout: 60)))
        provider.behaviour.oauthErrorStatus = 200
        provider.behaviour.revocationError = "unsupported_token_type"
        let output = try await test.signOut().run(.init(revoke: true))
        #expect(output.revocations.map(\.result) == [.failed])
        #expect(output.revocations.first?.message?.contains("unsupported_token_type") == true, "\(output.revocations)")
    }

    // MARK: Item 9: bounded answers

    @Test("an answer over the request's limit (1 MiB by default) fails as too large, naming the endpoint; a larger limit takes it")
    func responseLimit() async throws {
        #expect(HTTPRequest.defaultResponseLimit == 1 << 20)
        let big = Data(repeating: 0x61, count: (1 << 20) + 1)
        let server = try LoopbackHTTPServer { request in
            HTTPResponse(status: 200, body: request.path == "/exact" ? Data(repeating: 0x61, count: 1 << 20) : big)
        }
        #expect(
            try await CurlTransport(timeout: 10, environment: [:]).send(HTTPRequest(url: URL(string: server.baseURL + "/exact")!)).body
                .count == 1 << 20)
        defer { server.stop() }
        let url = URL(string: server.baseURL + "/token")!
        await #expect { _ = try await CurlTransport(timeout: 10, environment: [:]).send(HTTPRequest(url: url)) } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == .networkRequestFailed && error.message.contains("too large") && error.message.contains("127.0.0.1/token")
                && !error.message.contains("could not reach")
        }
        let taken = try await CurlTransport(timeout: 10, environment: [:]).send(HTTPRequest(url: url, responseLimit: 4 << 20))
        #expect(taken.body.count == big.count)
        // The stub transport of the unit tests keeps the same rule.
        let stub = StubTransport { _ in HTTPResponse(status: 200, body: big) }
        await #expect(throws: AuthError.self) { _ = try await stub.send(HTTPRequest(url: url)) }
    }

    @Test("an answer without Content-Length is cut off at the limit too")
    func responseLimitWithoutLength() async throws {
        // A raw server that streams 3 MiB with no length and closes.
        let server = try LoopbackHTTPServer { _ in
            HTTPResponse(
                status: 200, headers: [LoopbackHTTPServer.omitContentLength: "1"], body: Data(repeating: 0x62, count: 3 << 20))
        }
        defer { server.stop() }
        await #expect {
            _ = try await CurlTransport(timeout: 10, environment: [:]).send(HTTPRequest(url: URL(string: server.baseURL + "/jwks")!))
        } throws: { ($0 as? AuthError)?.message.contains("too large") == true }
    }

    @Test("a profile photo may be up to 16 MiB, not more")
    func photoLimit() async throws {
        let microsoft = try FakeMicrosoft()
        var account = FakeMicrosoft.Account.work
        account.photo = Data(repeating: 0xFF, count: 2 << 20)
        microsoft.update { $0.account = account }
        let test = try await TestEnvironment(microsoft: microsoft)
        _ = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "microsoft"), options: FlowOptions(timeout: 60)))
        #expect(try await test.userPhoto().run().data.count == 2 << 20)
        account.photo = Data(repeating: 0xFF, count: (16 << 20) + 1)
        microsoft.update { $0.account = account }
        _ = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "microsoft"), options: FlowOptions(timeout: 60)))
        await #expect { _ = try await test.userPhoto().run() } throws: { error in
            (error as? AuthError)?.code == .networkRequestFailed && (error as? AuthError)?.message.contains("too large") == true
        }
    }

    // MARK: Item 5: proxies

    @Test("a request through an unreachable proxy names it as scheme://host:port, never its credentials")
    func proxyNamed() async throws {
        let transport = CurlTransport(timeout: 5, environment: ["https_proxy": "http://alice:pa55word@127.0.0.1:1"])
        await #expect {
            _ = try await transport.send(HTTPRequest(url: URL(string: "https://provider.invalid/.well-known/openid-configuration")!))
        } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == .networkRequestFailed && error.message.contains("through the proxy http://127.0.0.1:1 (from https_proxy)")
                && !error.message.contains("alice") && !error.message.contains("pa55word")
        }
    }

    @Test("a provider on loopback is reached directly even when every proxy variable names a proxy")
    func loopbackNeverProxied() async throws {
        let proxy = try CountingListener()
        defer { proxy.stop() }
        let server = try LoopbackHTTPServer { _ in HTTPResponse(status: 200, body: Data("{}".utf8)) }
        defer { server.stop() }
        let everything = [
            "http_proxy": proxy.url, "HTTP_PROXY": proxy.url, "https_proxy": proxy.url, "all_proxy": proxy.url, "ALL_PROXY": proxy.url,
            "no_proxy": "", "NO_PROXY": "",
        ]
        let transport = CurlTransport(timeout: 5, environment: everything)
        for base in [server.baseURL, "http://localhost:\(server.port)"] {
            let response = try await transport.send(HTTPRequest(url: URL(string: base + "/jwks")!))
            #expect(response.status == 200)
        }
        #expect(proxy.connections == 0)
    }

    @Test("the proxy variables are read as curl reads them; the user's NO_PROXY list keeps working")
    func proxyRoute() throws {
        let proxy = "http://user:secret@proxy.corp:3128"
        let https = URL(string: "https://login.example.com/token")!
        #expect(ProxyRoute(for: https, environment: ["HTTPS_PROXY": proxy]).variable == "HTTPS_PROXY")
        #expect(ProxyRoute(for: https, environment: ["ALL_PROXY": proxy]).variable == "ALL_PROXY")
        #expect(ProxyRoute(for: https, environment: ["ALL_PROXY": proxy]).shownProxy == "http://proxy.corp:3128")
        #expect(ProxyRoute(for: URL(string: "http://idp.example/")!, environment: ["HTTP_PROXY": proxy]).proxy == "", "httpoxy")
        for list in ["example.com", ".example.com", "*", "other.org, login.example.com", "10.0.0.0/8 example.com"] {
            let route = ProxyRoute(for: https, environment: ["https_proxy": proxy, "NO_PROXY": list])
            #expect(route.proxy == "" && route.noProxy.hasPrefix(list) && route.noProxy.contains("127.0.0.1"), "\(list)")
        }
        #expect(ProxyRoute(for: https, environment: ["https_proxy": proxy, "no_proxy": "ample.com"]).proxy == proxy)
        #expect(
            ProxyRoute(for: URL(string: "https://10.1.2.3/")!, environment: ["https_proxy": proxy, "no_proxy": "10.0.0.0/8"]).proxy == "")
        #expect(ProxyRoute(for: URL(string: "https://127.0.0.5/")!, environment: ["https_proxy": proxy]).proxy == "")
        #expect(ProxyRoute(for: URL(string: "https://[::1]:8443/")!, environment: ["https_proxy": proxy]).proxy == "")
        #expect(ProxyRoute(for: https, environment: ["https_proxy": "proxy.corp:3128"]).shownProxy == "http://proxy.corp:3128")
        #expect(ProxyRoute(for: https, environment: [:]).noProxy == "localhost,127.0.0.1,::1,127.0.0.0/8")
    }

    // MARK: Item 16: every libcurl option set is checked

    @Test("an option libcurl refuses (a string over its 8 MB input limit) ends the request with an error naming it; nothing is sent")
    func refusedOptionStopsTheRequest() async throws {
        let seen = RequestCounter()
        let server = try LoopbackHTTPServer { _ in
            seen.bump()
            return HTTPResponse(status: 200, body: Data("{}".utf8))
        }
        defer { server.stop() }
        let url = URL(string: server.baseURL + "/token")!
        // libcurl refuses any string option longer than CURL_MAX_INPUT_LENGTH (8,000,000).
        let refusing = CurlTransport(timeout: 5, userAgent: String(repeating: "a", count: 8_000_001), environment: [:])
        await #expect { _ = try await refusing.send(HTTPRequest(url: url)) } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == .networkRequestFailed && error.message.contains("CURLOPT_USERAGENT")
                && error.message.contains("did not send")
        }
        #expect(seen.count == 0, "a request went out although an option was refused")
        _ = try await CurlTransport(timeout: 5, userAgent: "authctl/test", environment: [:]).send(HTTPRequest(url: url))
        #expect(seen.count == 1)
    }

    // MARK: Item 7: header injection

    @Test("a header value with CR, LF or NUL is refused before anything is sent")
    func headerInjectionRefused() async throws {
        let seen = RequestCounter()
        let server = try LoopbackHTTPServer { _ in
            seen.bump()
            return HTTPResponse(status: 200, body: Data("{}".utf8))
        }
        defer { server.stop() }
        let url = URL(string: server.baseURL + "/v1.0/me")!
        for headers in [
            ["Authorization": "Bearer at-1\r\nX-Injected: 1"], ["Authorization": "Bearer at-1\nX-Injected: 1"],
            ["Authorization": "Bearer at-1\rX"], ["Authorization": "Bearer at-1\u{0}X"], ["X-Bad\r\nX-Injected": "1"],
            ["X-Bad: 1\r\nX-Injected": "1"],
        ] {
            await #expect {
                _ = try await CurlTransport(timeout: 5, environment: [:]).send(HTTPRequest(url: url, headers: headers).handedOver())
            } throws: { error in
                guard let error = error as? AuthError else { return false }
                return error.code == .invalidCredential && !error.message.contains("at-1")
            }
        }
        #expect(seen.count == 0, "the request was sent")
        _ = try await CurlTransport(timeout: 5, environment: [:]).send(
            HTTPRequest(url: url, headers: ["Authorization": "Bearer at-1"]).handedOver())
        #expect(seen.count == 1)
    }

    @Test("a Microsoft access token carrying \\r\\nX-Injected: 1 is refused; the Graph request is never sent")
    func injectedTokenNeverReachesGraph() async throws {
        let microsoft = try FakeMicrosoft()
        microsoft.update { $0.accessTokenSuffix = "\r\nX-Injected: 1" }
        let test = try await TestEnvironment(microsoft: microsoft)
        await #expect {
            _ = try await test.signIn().run(
                .init(providerID: try ProviderID(parsing: "microsoft"), options: FlowOptions(timeout: 60)))
        } throws: { ($0 as? AuthError)?.code == .invalidCredential }
        #expect(microsoft.count("me") == 0)
        #expect(test.keystore.writes == 0)
    }

    @Test(
        "an access token beyond visible ASCII (a '.' and a combining mark) is refused, and nothing is stored",
        arguments: ["\u{301}", "é", "\u{200D}"])
    func nonASCIITokenRefused(suffix: String) async throws {
        let microsoft = try FakeMicrosoft()
        microsoft.update { $0.accessTokenSuffix = "." + suffix }
        let test = try await TestEnvironment(microsoft: microsoft)
        await #expect {
            _ = try await test.signIn().run(
                .init(providerID: try ProviderID(parsing: "microsoft"), options: FlowOptions(timeout: 60)))
        } throws: { ($0 as? AuthError)?.code == .invalidCredential && "\(($0 as? AuthError)?.message ?? "")".contains("visible ASCII") }
        #expect(test.keystore.writes == 0)
    }

    @Test("a stored access token with a line break (written before this check) never reaches the photo endpoint")
    func storedInjectedTokenNeverSent() async throws {
        let microsoft = try FakeMicrosoft()
        let test = try await TestEnvironment(microsoft: microsoft)
        _ = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "microsoft"), options: FlowOptions(timeout: 60)))
        _ = try await test.keystore.update { state in
            let token = state.users[0].providerData[0].tokens?.accessToken ?? ""
            state.users[0].providerData[0].tokens?.accessToken = token + "\r\nX-Injected: 1"
        }
        await #expect { _ = try await test.userPhoto().run() } throws: {
            ($0 as? AuthError)?.code == .invalidCredential
        }
        #expect(microsoft.count("photo") == 0)
    }
}

/// Counts requests a test server saw.
final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func bump() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
