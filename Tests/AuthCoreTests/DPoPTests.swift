import AuthCoreTestSupport
import Crypto
import Foundation
import Testing

@testable import AuthCore

private func answer(_ json: String, status: Int = 200, headers: [String: String] = [:]) -> HTTPResponse {
    HTTPResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a }, body: Data(json.utf8))
}

/// A JWT's header and claims, decoded without checking.
private func parts(_ jwt: String) throws -> (header: [String: JSONValue], claims: [String: JSONValue], signed: String, signature: Data) {
    let pieces = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    try #require(pieces.count == 3)
    let headerBytes = try #require(Base64URL.decode(pieces[0]))
    let claimBytes = try #require(Base64URL.decode(pieces[1]))
    let signature = try #require(Base64URL.decode(pieces[2]))
    let header = try #require(JSONValue.object(from: headerBytes))
    let claims = try #require(JSONValue.object(from: claimBytes))
    return (header, claims, pieces[0] + "." + pieces[1], signature)
}

@Suite("DPoP keys and proofs (RFC 9449)")
struct DPoPKeyTests {
    let key = DPoPKey.generate(using: SeededRandom())

    @Test("a proof: typ dpop+jwt, ES256, the public jwk; htm, htu without query or fragment, iat, jti, ath, nonce; signed by the key")
    func proofShape() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let proof = try key.proof(
            method: "GET", url: URL(string: "https://api.example.com/v1/me?x=1#frag")!, now: now, jti: "j1", nonce: "n\"1",
            accessToken: "at")
        let (header, claims, signed, signature) = try parts(proof)
        #expect(header["typ"] == "dpop+jwt" && header["alg"] == "ES256")
        let jwk = try #require(header["jwk"]?.objectValue)
        #expect(jwk["kty"] == "EC" && jwk["crv"] == "P-256" && jwk["d"] == nil, "the public half only")
        #expect(claims["htm"] == "GET" && claims["htu"] == "https://api.example.com/v1/me")
        #expect(claims["iat"] == .number(1_800_000_000) && claims["jti"] == "j1" && claims["nonce"] == "n\"1")
        #expect(claims["ath"] == .string(Base64URL.encode(SHA256.hash(data: Data("at".utf8)))))
        let xText = try #require(jwk["x"]?.stringValue)
        let yText = try #require(jwk["y"]?.stringValue)
        let x = try #require(Base64URL.decode(xText))
        let y = try #require(Base64URL.decode(yText))
        let publicKey = try P256.Signing.PublicKey(rawRepresentation: x + y)
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(publicKey.isValidSignature(ecdsa, for: Data(signed.utf8)), "ES256 over header.claims")
        // RFC 7638 §3: the thumbprint of the required members, sorted, without white space.
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(xText)","y":"\#(yText)"}"#
        #expect(key.thumbprint == Base64URL.encode(SHA256.hash(data: Data(canonical.utf8))))
    }

    @Test("without a token or a nonce, no ath and no nonce")
    func plainProof() throws {
        let (_, claims, _, _) = try parts(
            try key.proof(method: "POST", url: URL(string: "https://idp.example/token")!, now: Date(), jti: "j"))
        #expect(claims["ath"] == nil && claims["nonce"] == nil && claims["htm"] == "POST")
    }

    @Test("the key never shows: description, debug description and reflection name the thumbprint alone")
    func neverShown() {
        let secret = key.storedForm
        for text in [String(describing: key), String(reflecting: key), "\(key)", String(describing: [key])] {
            #expect(!text.contains(secret) && text.contains(key.thumbprint), "\(text)")
        }
    }

    @Test("the stored form round-trips; damaged forms are refused")
    func storedForm() {
        #expect(DPoPKey(storedForm: key.storedForm) == key)
        for damaged in ["", "AAAA", String(repeating: "A", count: 43), key.storedForm + "A", String(repeating: "_", count: 43)] {
            #expect(DPoPKey(storedForm: damaged) == nil, "\(damaged)")
        }
    }
}

@Suite("The token client with DPoP")
struct TokenClientDPoPTests {
    let discovery = DiscoveryDocument(
        issuer: "https://idp.example", authorizationEndpoint: URL(string: "https://idp.example/authorize")!,
        tokenEndpoint: URL(string: "https://idp.example/token")!, jwksURI: URL(string: "https://idp.example/jwks")!,
        deviceAuthorizationEndpoint: URL(string: "https://idp.example/device")!)
    let key = DPoPKey.generate(using: SeededRandom(seed: 7))

    func provider() throws -> any IdentityProvider {
        try ProviderRegistry.provider(for: ProviderConfig(id: "oidc.example", clientID: "client", issuer: "https://idp.example"))
    }

    func client(_ transport: StubTransport) -> TokenClient {
        TokenClient(
            transport: transport, clock: ManualClock(), random: SeededRandom(), metadataCache: NoMetadataCache(),
            secrets: StaticSecrets([:]))
    }

    @Test("use_dpop_nonce is answered once, with the nonce in a new proof (new jti); the tokens come back bound to the key")
    func nonceRetry() async throws {
        let transport = StubTransport { request in
            let proof = try #require(request.headers["DPoP"])
            let claims = try parts(proof).claims
            guard claims["nonce"] == "server-nonce" else {
                return answer(#"{"error":"use_dpop_nonce"}"#, status: 400, headers: ["DPoP-Nonce": "server-nonce"])
            }
            return answer(#"{"access_token":"at","token_type":"DPoP","refresh_token":"rt2"}"#)
        }
        let issued = try await client(transport).requestTokens(
            .refreshToken("rt", scopes: nil), provider: try provider(), discovery: discovery, proof: .required(key), binding: .of(discovery)
        )
        #expect(issued.response.tokenType == "DPoP" && issued.proofKey == key)
        let proofs = try transport.requests.map { request in
            let proof = try #require(request.headers["DPoP"])
            return try parts(proof).claims
        }
        #expect(proofs.count == 2 && proofs[0]["jti"] != proofs[1]["jti"] && proofs[0]["htu"] == "https://idp.example/token")
    }

    @Test("a second nonce challenge is not retried again: the provider's refusal is the answer")
    func nonceRetriedOnce() async throws {
        let transport = StubTransport { _ in
            answer(#"{"error":"use_dpop_nonce"}"#, status: 400, headers: ["DPoP-Nonce": "n\(Int.random(in: 0...999))"])
        }
        await #expect {
            _ = try await client(transport).requestTokens(
                .refreshToken("rt", scopes: nil), provider: try provider(), discovery: discovery, proof: .required(key),
                binding: .of(discovery))
        } throws: { ($0 as? AuthError)?.oauthError == .useDPoPNonce }
        #expect(transport.requests.count == 2)
    }

    @Test("a nonce is remembered for the next request to the same server; a nonce with a quote or a line break is not")
    func nonceRemembered() async throws {
        let transport = StubTransport { request in
            answer(#"{"access_token":"at","token_type":"DPoP"}"#, headers: ["DPoP-Nonce": request.headers["DPoP"] == nil ? "x" : "fresh"])
        }
        let tokens = client(transport)
        _ = try await tokens.requestTokens(
            .refreshToken("r", scopes: nil), provider: try provider(), discovery: discovery, proof: .required(key), binding: .of(discovery))
        _ = try await tokens.requestTokens(
            .refreshToken("r", scopes: nil), provider: try provider(), discovery: discovery, proof: .required(key), binding: .of(discovery))
        let lastProof = try #require(transport.requests.last?.headers["DPoP"])
        let second = try parts(lastProof).claims
        #expect(second["nonce"] == "fresh")
        #expect(!DPoPNonces.isNonce("a\"b") && !DPoPNonces.isNonce("a\nb") && !DPoPNonces.isNonce(""))
    }

    @Test("required binding refuses a bearer answer; no proof refuses a DPoP answer; offered takes either")
    func bindingChecked() async throws {
        let bearer = StubTransport { _ in answer(#"{"access_token":"at","token_type":"Bearer"}"#) }
        await #expect {
            _ = try await client(bearer).requestTokens(
                .refreshToken("r", scopes: nil), provider: try provider(), discovery: discovery, proof: .required(key),
                binding: .of(discovery))
        } throws: { ($0 as? AuthError)?.code == .invalidCredential }
        let offered = try await client(bearer).requestTokens(
            .refreshToken("r", scopes: nil), provider: try provider(), discovery: discovery, proof: .offered(key), binding: .of(discovery))
        #expect(offered.proofKey == key && offered.response.tokenType == "Bearer", "the key proved is kept: the refresh token may be bound")
        let bound = StubTransport { _ in answer(#"{"access_token":"at","token_type":"dpop"}"#) }
        await #expect {
            _ = try await client(bound).requestTokens(
                .refreshToken("r", scopes: nil), provider: try provider(), discovery: discovery, binding: .of(discovery))
        } throws: { ($0 as? AuthError)?.code == .invalidCredential }
        #expect(bound.requests.first?.headers["DPoP"] == nil)
    }

    @Test("a bare 400 to a refresh is invalid_grant (Glewlwyd's used refresh token); to a code exchange it stays a network error")
    func bareRefusal() async throws {
        let transport = StubTransport { _ in HTTPResponse(status: 400) }
        await #expect {
            _ = try await client(transport).requestTokens(
                .refreshToken("r", scopes: nil), provider: try provider(), discovery: discovery, binding: .of(discovery))
        } throws: { ($0 as? AuthError)?.oauthError == .invalidGrant }
        await #expect {
            _ = try await client(transport).requestTokens(
                .authorizationCode(code: "c", redirectURI: URL(string: "http://127.0.0.1:1/callback")!, codeVerifier: nil),
                provider: try provider(), discovery: discovery, binding: .of(discovery))
        } throws: { ($0 as? AuthError)?.code == .networkRequestFailed }
    }

    @Test("a pushed request: the parameters and client_id in the body, a request_uri back; a refusal or no request_uri is an error")
    func pushed() async throws {
        let endpoint = URL(string: "https://idp.example/par")!
        let ok = StubTransport { _ in answer(#"{"request_uri":"urn:ietf:params:oauth:request_uri:abc","expires_in":90}"#, status: 201) }
        let pushed = try await client(ok).pushAuthorization(
            [("response_type", "code"), ("client_id", "client"), ("dpop_jkt", key.thumbprint)], at: endpoint, provider: try provider(),
            discovery: discovery, binding: .of(discovery))
        #expect(pushed == TokenClient.Pushed(requestURI: "urn:ietf:params:oauth:request_uri:abc", expiresIn: 90))
        let form = FakeHTTP.form(ok.requests.first?.body ?? Data())
        #expect(form["dpop_jkt"] == key.thumbprint && form["client_id"] == "client" && ok.requests.first?.url == endpoint)
        for bad in [
            answer(#"{"error":"invalid_request"}"#, status: 400), HTTPResponse(status: 403), answer(#"{"expires_in":90}"#, status: 201),
            answer(#"{"request_uri":"a b"}"#, status: 201),
        ] {
            await #expect(throws: AuthError.self) {
                _ = try await client(StubTransport { _ in bad }).pushAuthorization(
                    [], at: endpoint, provider: try provider(), discovery: discovery, binding: .of(discovery))
            }
        }
    }

    @Test("a device authorization names the key's thumbprint (dpop_jkt)")
    func deviceBound() async throws {
        let transport = StubTransport { _ in
            answer(#"{"device_code":"d","user_code":"U","verification_uri":"https://idp.example/device","expires_in":600}"#)
        }
        _ = try await client(transport).deviceAuthorization(
            scopes: ["openid"], provider: try provider(), discovery: discovery, proofKey: key, binding: .of(discovery))
        #expect(FakeHTTP.form(transport.requests.first?.body ?? Data())["dpop_jkt"] == key.thumbprint)
    }
}

@Suite("Request protection: DPoP, pushed requests and FAPI 2.0 decided from the configuration and the metadata")
struct RequestProtectionTests {
    let key = DPoPKey.generate(using: SeededRandom(seed: 3))

    func discovery(dpop: [String]? = nil, par: Bool = false, requirePAR: Bool? = nil, iss: Bool? = nil) -> DiscoveryDocument {
        var document = DiscoveryDocument(
            issuer: "https://idp.example", authorizationEndpoint: URL(string: "https://idp.example/authorize")!,
            tokenEndpoint: URL(string: "https://idp.example/token")!, jwksURI: URL(string: "https://idp.example/jwks")!)
        document.dpopSigningAlgValuesSupported = dpop
        document.pushedAuthorizationRequestEndpoint = par ? URL(string: "https://idp.example/par")! : nil
        document.requirePushedAuthorizationRequests = requirePAR
        document.authorizationResponseIssParameterSupported = iss
        return document
    }

    func decide(_ configure: (inout ProviderConfig) -> Void, _ document: DiscoveryDocument, implicit: Bool = false) throws
        -> RequestProtection
    {
        var config = ProviderConfig(id: "oidc.example", clientID: "client", issuer: "https://idp.example")
        configure(&config)
        return try RequestProtection.decide(
            provider: try ProviderRegistry.provider(for: config), discovery: document, key: key, usesTokenEndpoint: !implicit)
    }

    @Test("auto: DPoP offered when ES256 is listed, PAR when the endpoint is; neither otherwise")
    func auto() throws {
        #expect(try decide({ _ in }, discovery()) == .none)
        let both = try decide({ _ in }, discovery(dpop: ["RS256", "ES256"], par: true))
        #expect(both.proof == .offered(key) && both.pushEndpoint?.path == "/par")
        #expect(try decide({ _ in }, discovery(dpop: ["RS256"])).proof == .none, "no ES256: no proofs")
    }

    @Test("always and never; the provider requiring PAR overrides auto and refuses never; always without support is an error")
    func explicit() throws {
        #expect(try decide({ $0.dpop = "always" }, discovery()).proof == .required(key))
        #expect(
            try decide(
                {
                    $0.dpop = "never"; $0.par = "never"
                }, discovery(dpop: ["ES256"], par: true)) == .none)
        #expect(throws: AuthError.self) { try decide({ $0.dpop = "always" }, discovery(dpop: ["RS256"])) }
        #expect(throws: AuthError.self) { try decide({ $0.par = "always" }, discovery()) }
        #expect(throws: AuthError.self) { try decide({ $0.par = "never" }, discovery(par: true, requirePAR: true)) }
        #expect(throws: AuthError.self) { try decide({ _ in }, discovery(requirePAR: true)) }
        #expect(throws: AuthError.self) { try decide({ $0.dpop = "always" }, discovery(), implicit: true) }
    }

    @Test(
        "fapi2: a workload with private_key_jwt gets DPoP required; a person's sign-in, a secret or a provider lacking a piece is refused, naming it"
    )
    func fapi2() throws {
        var config = ProviderConfig(id: "oidc.example", clientID: "client", issuer: "https://idp.example", profile: "fapi2")
        let provider = try ProviderRegistry.provider(for: config)
        var full = discovery(dpop: ["ES256"], par: true, iss: true)
        full.tokenEndpointAuthMethodsSupported = ["private_key_jwt"]
        let keyed = WorkloadClient(clientID: "w", authentication: .certificateFile("/k.pem"))
        let workload = try RequestProtection.decide(provider: provider, discovery: full, key: key, browser: false, workload: keyed)
        #expect(workload.proof == .required(key) && workload.pushEndpoint == nil)
        let secret = WorkloadClient(clientID: "w", authentication: .secretEnvironment("S"))
        #expect(throws: AuthError.self) {
            try RequestProtection.decide(provider: provider, discovery: full, key: key, browser: false, workload: secret)
        }
        #expect {
            try RequestProtection.decide(provider: provider, discovery: full, key: key)
        } throws: { error in "\((error as? AuthError)?.message ?? "")".contains("private_key_jwt") }
        #expect {
            try RequestProtection.decide(provider: provider, discovery: discovery(dpop: ["ES256"], par: true), key: key)
        } throws: { error in
            let text = (error as? AuthError).map { "\($0.message)" } ?? ""
            return text.contains("authorization_response_iss_parameter_supported") && !text.contains("DPoP with")
        }
        config.profile = nil
        let plain = try ProviderRegistry.provider(for: config)
        #expect(try ClientAuthenticator.assertionAudience(provider: plain, discovery: full) == full.tokenEndpoint)
        let audience = try ClientAuthenticator.assertionAudience(provider: provider, discovery: full)
        #expect(audience.absoluteString == "https://idp.example", "FAPI 2.0: the issuer identifier, not the token endpoint")
        #expect(throws: AuthError.self) { try ProviderConfig(id: "oidc.x", issuer: "https://x.example", profile: "fapi3").validate() }
        #expect(throws: AuthError.self) {
            try ProviderConfig(id: "oidc.x", issuer: "https://x.example", dpop: "never", profile: "fapi2").validate()
        }
    }
}

/// What an attacker's review of the DPoP work found (each test failed before its fix).
@Suite("DPoP: the review's findings")
struct DPoPReviewTests {
    let key = DPoPKey.generate(using: SeededRandom(seed: 11))
    let discovery = DiscoveryDocument(
        issuer: "https://idp.example", authorizationEndpoint: URL(string: "https://idp.example/authorize")!,
        tokenEndpoint: URL(string: "https://idp.example/token")!, jwksURI: URL(string: "https://idp.example/jwks")!)

    func provider(_ configure: (inout ProviderConfig) -> Void = { _ in }) throws -> any IdentityProvider {
        var config = ProviderConfig(id: "oidc.example", clientID: "client", issuer: "https://idp.example")
        configure(&config)
        return try ProviderRegistry.provider(for: config)
    }

    func client(_ transport: StubTransport) -> TokenClient {
        TokenClient(
            transport: transport, clock: ManualClock(), random: SeededRandom(), metadataCache: NoMetadataCache(),
            secrets: StaticSecrets([:]))
    }

    @Test("1: a resource's plain OAuth grant keeps the key its tokens are bound to")
    func resourceGrantKeepsKey() throws {
        let assembly = CredentialAssembly(
            transport: StubTransport { _ in HTTPResponse(status: 500) }, clock: ManualClock(),
            metadata: ProviderMetadata(
                transport: StubTransport { _ in HTTPResponse(status: 500) }, clock: ManualClock(), metadataCache: NoMetadataCache()))
        let issued = TokenClient.Issued(response: TokenResponse(accessToken: "at", tokenType: "DPoP"), proofKey: key)
        let credential = try assembly.resourceOnly(
            issued, provider: try provider(), askedScopes: [], resource: URL(string: "https://api.example/mcp")!)
        #expect(credential.tokens.proofKey == key)
    }

    @Test("1: a DPoP token without its key is never presented as bearer")
    func neverBearerWithoutKey() throws {
        #expect(throws: AuthError.self) {
            try ResourceAuthorization.headers(
                accessToken: "at", tokenType: "DPoP", proofKey: nil, method: "GET", url: URL(string: "https://api.example/x")!,
                now: Date(), random: SeededRandom())
        }
        let bearer = try ResourceAuthorization.headers(
            accessToken: "at", tokenType: "Bearer", proofKey: nil, method: "GET", url: URL(string: "https://api.example/x")!, now: Date(),
            random: SeededRandom())
        #expect(bearer == ["Authorization": "Bearer at"])
    }

    @Test("3: fapi2 requires DPoP and PAR whatever --dpop and --par say; auto is refused with the profile")
    func fapi2RequiresDPoP() throws {
        let config = ProviderConfig(id: "oidc.x", issuer: "https://x.example", profile: "fapi2")
        #expect(config.dpopUse == .always && config.parUse == .always)
        #expect(throws: AuthError.self) {
            try ProviderConfig(id: "oidc.x", issuer: "https://x.example", dpop: "auto", profile: "fapi2").validate()
        }
        #expect(throws: AuthError.self) {
            try ProviderConfig(id: "oidc.x", issuer: "https://x.example", par: "auto", profile: "fapi2").validate()
        }
        try ProviderConfig(id: "oidc.x", issuer: "https://x.example", dpop: "always", par: "always", profile: "fapi2").validate()
    }

    @Test("4: a key proved at the grant is kept when the access token comes back bearer (a bound refresh token), and proved at refresh")
    func keyKeptForBoundRefreshToken() async throws {
        let transport = StubTransport { request in
            guard request.headers["DPoP"] != nil else { return HTTPResponse(status: 400, body: Data(#"{"error":"invalid_grant"}"#.utf8)) }
            return HTTPResponse(status: 200, body: Data(#"{"access_token":"at","token_type":"Bearer","refresh_token":"rt"}"#.utf8))
        }
        let issued = try await client(transport).requestTokens(
            .refreshToken("r", scopes: nil), provider: try provider(), discovery: discovery, proof: .offered(key), binding: .of(discovery))
        #expect(issued.proofKey == key && issued.response.tokenType == "Bearer")
        var tokens = TokenSet(accessToken: "at", tokenType: "Bearer", expiresAt: nil, refreshToken: "rt", idToken: nil, scopes: [])
        tokens.proofKey = key
        #expect(!tokens.isDPoPBound, "the access token is a bearer token: exec and git may use it")
        #expect(tokens.refreshProof == .offered(key))
        tokens.tokenType = "DPoP"
        #expect(tokens.refreshProof == .required(key))
    }

    @Test("5: a PAR endpoint's redirect, 5xx or empty 204 is not the protocol (network-request-failed); a bare 4xx is a refusal")
    func parStatuses() async throws {
        let endpoint = URL(string: "https://idp.example/par")!
        for (status, code) in [
            (302, AuthError.Code.networkRequestFailed), (500, .networkRequestFailed), (204, .networkRequestFailed),
            (401, .invalidCredential), (403, .invalidCredential),
        ] {
            await #expect {
                _ = try await client(StubTransport { _ in HTTPResponse(status: status, headers: ["Location": "https://evil.example/"]) })
                    .pushAuthorization([], at: endpoint, provider: try provider(), discovery: discovery, binding: .of(discovery))
            } throws: { ($0 as? AuthError)?.code == code }
        }
    }

    @Test("8: htu never carries userinfo")
    func htuWithoutUserinfo() {
        #expect(DPoPKey.htu(URL(string: "https://user:pa%40ss@api.example.com:8443/x?q=1#f")!) == "https://api.example.com:8443/x")
    }
}
