import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// In front of the in-process provider: answers the token exchange grant (RFC 8693) at its
/// token endpoint and STS's `AssumeRoleWithWebIdentity` at `sts.test.invalid`, recording
/// both; everything else goes to the provider.
final class CloudServers: HTTPTransport, @unchecked Sendable {
    let base: any HTTPTransport
    private let lock = NSLock()
    private var exchangeForms: [[String: String]] = []
    private var exchangeProofs: [String?] = []
    private var stsRequests: [HTTPRequest] = []
    var exchangeAnswer: @Sendable ([String: String]) -> HTTPResponse = { form in
        FakeHTTP.json(
            .object([
                "access_token": .string("exchanged-for-\(form["audience"] ?? form["resource"] ?? "?")-\(UUID().uuidString)"),
                "token_type": "N_A", "issued_token_type": "urn:ietf:params:oauth:token-type:jwt", "expires_in": .number(600),
            ]))
    }
    var stsAnswer: @Sendable () -> HTTPResponse = { CloudCredentialsTests.stsSuccess(expiresIn: 3600) }

    init(base: any HTTPTransport) { self.base = base }

    var exchanges: [[String: String]] { lock.withLock { exchangeForms } }
    /// The DPoP header of each exchange (nil: none).
    var proofs: [String?] { lock.withLock { exchangeProofs } }
    var sts: [HTTPRequest] { lock.withLock { stsRequests } }

    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        if request.url.host == "sts.test.invalid" {
            lock.withLock { stsRequests.append(request) }
            return stsAnswer()
        }
        let form = FakeHTTP.form(request.body ?? Data())
        if form["grant_type"] == TokenExchangeRequest.grantType {
            lock.withLock {
                exchangeForms.append(form)
                exchangeProofs.append(request.headers["DPoP"])
            }
            return exchangeAnswer(form)
        }
        return try await base.send(request)
    }
}

@Suite("Cloud credentials: token exchange (RFC 8693), AWS STS, the XML reader")
final class CloudCredentialsTests {
    let provider: FakeIdentityProvider
    var directories: [String] = []

    init() throws { provider = try FakeIdentityProvider() }

    deinit { for directory in directories { try? FileManager.default.removeItem(atPath: directory) } }

    static let secretKey = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    static let sessionToken = "FwoGZXIvYXdzEXAMPLESESSIONTOKEN+abc/def=="

    static func stsSuccess(expiresIn: TimeInterval) -> HTTPResponse {
        let expiration = Date().addingTimeInterval(expiresIn)
        let stamp = Date.ISO8601FormatStyle().format(expiration).replacingOccurrences(of: "Z", with: ".000Z")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
              <AssumeRoleWithWebIdentityResult>
                <SubjectFromWebIdentityToken>248289761001</SubjectFromWebIdentityToken>
                <AssumedRoleUser>
                  <Arn>arn:aws:sts::123456789012:assumed-role/dev/authctl-test</Arn>
                  <AssumedRoleId>AROA123456789EXAMPLE:authctl-test</AssumedRoleId>
                </AssumedRoleUser>
                <Credentials>
                  <SessionToken>\(sessionToken)</SessionToken>
                  <SecretAccessKey>\(secretKey)</SecretAccessKey>
                  <Expiration>\(stamp)</Expiration>
                  <AccessKeyId>ASIAIOSFODNN7EXAMPLE</AccessKeyId>
                </Credentials>
                <Audience>authctl-test-client</Audience>
              </AssumeRoleWithWebIdentityResult>
              <ResponseMetadata><RequestId>ad4156e9-bce1-11e2-82e6-6b6efEXAMPLE</RequestId></ResponseMetadata>
            </AssumeRoleWithWebIdentityResponse>
            """
        return HTTPResponse(status: 200, headers: ["Content-Type": "text/xml"], body: Data(xml.utf8))
    }

    static func stsError(_ code: String, status: Int = 400, message: String = "the trust policy says no") -> HTTPResponse {
        let xml = """
            <ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
              <Error><Type>Sender</Type><Code>\(code)</Code><Message>\(message)</Message></Error>
              <RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>
            </ErrorResponse>
            """
        return HTTPResponse(status: status, body: Data(xml.utf8))
    }

    struct Parts {
        let test: TestEnvironment
        let servers: CloudServers
        let exchange: TokenExchange
        let aws: AWSRoleCredentials
    }

    func signedIn() async throws -> Parts {
        let test = try await TestEnvironment(provider: provider)
        directories.append(test.directory)
        _ = try await test.signIn().run(.init(providerID: try ProviderID(parsing: "oidc.fake"), options: FlowOptions(timeout: 60)))
        let servers = CloudServers(base: test.transport)
        let tokens = TokenClient(
            transport: servers, clock: test.clock, random: test.random, metadataCache: test.metadataCache, secrets: test.secrets)
        let exchange = TokenExchange(
            keystore: test.keystore, configStore: test.configStore, tokens: tokens, refresh: test.tokenRefresh(), secrets: test.secrets,
            clock: test.clock)
        let aws = AWSRoleCredentials(
            keystore: test.keystore, refresh: test.tokenRefresh(), exchange: exchange, transport: servers, clock: test.clock)
        return Parts(test: test, servers: servers, exchange: exchange, aws: aws)
    }

    // MARK: - Token exchange

    @Test("the exchange sends the session's access token as the subject token, with the client's id, through the token endpoint")
    func exchangeRequest() async throws {
        let parts = try await signedIn()
        let accessToken = try #require(parts.test.keystore.state.currentUser?.providerData.first?.tokens?.accessToken)
        let output = try await parts.exchange.run(
            .init(audience: "https://api.example.com", scopes: ["read"], requestedTokenType: "jwt"))
        let form = try #require(parts.servers.exchanges.first)
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:token-exchange")
        #expect(form["subject_token"] == accessToken)
        #expect(form["subject_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
        #expect(form["audience"] == "https://api.example.com")
        #expect(form["scope"] == "read")
        #expect(form["requested_token_type"] == "urn:ietf:params:oauth:token-type:jwt")
        #expect(form["client_id"] == provider.clientID)
        #expect(form["actor_token"] == nil)
        #expect(output.tokenType == "N_A" && output.issuedTokenType == "urn:ietf:params:oauth:token-type:jwt")
        #expect(output.token.hasPrefix("exchanged-for-https://api.example.com"))
        #expect(output.exchanged)
    }

    @Test("--subject-token-type id_token gives the ID token in exchange")
    func idTokenSubject() async throws {
        let parts = try await signedIn()
        let idToken = try #require(parts.test.keystore.state.currentUser?.providerData.first?.tokens?.idToken)
        _ = try await parts.exchange.run(.init(audience: "aws", subjectToken: .idToken))
        #expect(parts.servers.exchanges.first?["subject_token"] == idToken)
        #expect(parts.servers.exchanges.first?["subject_token_type"] == "urn:ietf:params:oauth:token-type:id_token")
    }

    @Test("the result is cached per audience until near expiry: the same request again sends nothing, another audience exchanges")
    func cached() async throws {
        let parts = try await signedIn()
        let first = try await parts.exchange.run(.init(audience: "a"))
        let again = try await parts.exchange.run(.init(audience: "a"))
        #expect(again.token == first.token && !again.exchanged)
        #expect(parts.servers.exchanges.count == 1)
        let other = try await parts.exchange.run(.init(audience: "b"))
        #expect(other.token != first.token)
        let scoped = try await parts.exchange.run(.init(audience: "a", scopes: ["x"]))
        #expect(scoped.token != first.token)
        #expect(parts.servers.exchanges.count == 3)
        // Asked to last longer than the cached token lives: exchanged again.
        _ = try await parts.exchange.run(.init(audience: "a", minimumTTL: 900))
        #expect(parts.servers.exchanges.count == 4)
        let derived = parts.test.keystore.state.currentUser?.providerData.first?.tokens?.derivedCredentials ?? [:]
        #expect(derived.count == 3)
    }

    @Test("an actor token is read from its variable at each exchange, sent as actor_token, and the result is not cached")
    func actorToken() async throws {
        let parts = try await signedIn()
        let actor = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhY3RvciJ9.c2ln"
        let exchange = TokenExchange(
            keystore: parts.test.keystore, configStore: parts.test.configStore,
            tokens: TokenClient(
                transport: parts.servers, clock: parts.test.clock, random: parts.test.random, metadataCache: parts.test.metadataCache,
                secrets: StaticSecrets(["ACTOR": actor])),
            refresh: parts.test.tokenRefresh(), secrets: StaticSecrets(["ACTOR": actor]), clock: parts.test.clock)
        _ = try await exchange.run(.init(audience: "a", actorToken: .environment("ACTOR")))
        _ = try await exchange.run(.init(audience: "a", actorToken: .environment("ACTOR")))
        #expect(parts.servers.exchanges.count == 2)
        #expect(parts.servers.exchanges.first?["actor_token"] == actor)
        #expect(parts.servers.exchanges.first?["actor_token_type"] == "urn:ietf:params:oauth:token-type:jwt")
        await #expect { try await exchange.run(.init(audience: "a", actorToken: .environment("UNSET"))) } throws: {
            ($0 as? AuthError)?.code == .invalidArgument && ($0 as? AuthError)?.message.contains("UNSET") == true
        }
    }

    @Test("a refusal (invalid_target) is invalid-credential naming --audience, and nothing is cached")
    func refused() async throws {
        let parts = try await signedIn()
        parts.servers.exchangeAnswer = { _ in
            FakeHTTP.json(.object(["error": "invalid_target", "error_description": "no such audience"]), status: 400)
        }
        await #expect {
            try await parts.exchange.run(.init(audience: "nope"))
        } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == .invalidCredential && error.message.contains("invalid_target") && error.message.contains("‹audience›")
        }
        #expect(parts.test.keystore.state.currentUser?.providerData.first?.tokens?.derivedCredentials == nil)
    }

    @Test("a DPoP-bound identity's token is exchanged with a proof of its key (no ath); a grant that comes back unbound is printable")
    func dpopSubjectProves() async throws {
        let parts = try await signedIn()
        let key = DPoPKey.generate(using: SeededRandom(seed: 7))
        try await parts.test.keystore.update { state in
            state.users[0].providerData[0].tokens?.tokenType = "DPoP"
            state.users[0].providerData[0].tokens?.proofKey = key
        }
        let output = try await parts.exchange.run(.init(audience: "a", requestedTokenType: "jwt"))
        #expect(parts.servers.exchanges.count == 1)
        let proof = try #require(parts.servers.proofs.first ?? nil)
        let (header, claims) = try #require(DPoPProofParts(proof))
        #expect(header["typ"] == "dpop+jwt" && header["x"] == key.x && header["y"] == key.y)
        #expect(claims["htm"] == "POST" && claims["htu"] == provider.issuer + "/token")
        #expect(claims["ath"] == nil, "a token request carries no ath")
        #expect(output.tokenType == "N_A" && output.proofKey == nil)
        #expect(try output.requireBearer(for: "the test") == output)
    }

    @Test("an exchanged token that comes back bound to the identity's key carries it, and is refused where only a token can go")
    func dpopBoundAnswer() async throws {
        let parts = try await signedIn()
        let key = DPoPKey.generate(using: SeededRandom(seed: 8))
        try await parts.test.keystore.update { state in
            state.users[0].providerData[0].tokens?.tokenType = "DPoP"
            state.users[0].providerData[0].tokens?.proofKey = key
        }
        parts.servers.exchangeAnswer = { _ in
            FakeHTTP.json(
                .object([
                    "access_token": "bound-at", "token_type": "DPoP", "expires_in": .number(600),
                    "issued_token_type": "urn:ietf:params:oauth:token-type:access_token",
                ]))
        }
        let output = try await parts.exchange.run(.init(audience: "a"))
        #expect(output.proofKey == key)
        #expect(throws: AuthError.self) { try output.requireBearer(for: "the test") }
        // From the cache too.
        let cached = try await parts.exchange.run(.init(audience: "a"))
        #expect(!cached.exchanged && cached.proofKey == key)
    }

    @Test("a DPoP-bound token whose key is missing is never presented as a subject token")
    func dpopKeyMissing() async throws {
        let parts = try await signedIn()
        try await parts.test.keystore.update { state in state.users[0].providerData[0].tokens?.tokenType = "DPoP" }
        await #expect { try await parts.exchange.run(.init(audience: "a")) } throws: { ($0 as? AuthError)?.code == .invalidCredential }
        #expect(parts.servers.exchanges.isEmpty)
    }

    @Test("without an audience or a resource, nothing is sent")
    func needsTarget() async throws {
        let parts = try await signedIn()
        await #expect { try await parts.exchange.run(.init()) } throws: { ($0 as? AuthError)?.code == .invalidArgument }
        #expect(parts.servers.exchanges.isEmpty)
    }

    @Test("signout drops the exchanged tokens and the AWS credentials with the session")
    func signOutDrops() async throws {
        let parts = try await signedIn()
        _ = try await parts.exchange.run(.init(audience: "a"))
        _ = try await parts.aws.run(.init(roleARN: "arn:aws:iam::123456789012:role/dev", endpoint: Self.sts))
        #expect(parts.test.keystore.state.currentUser?.providerData.first?.tokens?.derivedCredentials?.count == 2)
        _ = try await parts.test.signOut().run(.init())
        let text = String(describing: parts.test.keystore.state)
        #expect(!text.contains("exchanged-for") && !text.contains(Self.secretKey))
    }

    @Test("a token response to an exchange may say token_type N_A; any other grant's may not")
    func notApplicable() throws {
        let answer = FakeHTTP.json(.object(["access_token": "t", "token_type": "N_A", "issued_token_type": "urn:x"]))
        #expect(try TokenResponse.parse(answer, host: "h", exchange: true).issuedTokenType == "urn:x")
        #expect(throws: AuthError.self) { try TokenResponse.parse(answer, host: "h") }
    }

    // MARK: - AWS

    static let sts = URL(string: "https://sts.test.invalid/")!

    @Test("aws-credentials: STS is given the ID token, unsigned, and the credentials are cached until five minutes before expiry")
    func assumeRole() async throws {
        let parts = try await signedIn()
        let idToken = try #require(parts.test.keystore.state.currentUser?.providerData.first?.tokens?.idToken)
        let output = try await parts.aws.run(
            .init(roleARN: "arn:aws:iam::123456789012:role/dev", sessionName: "ada", durationSeconds: 900, endpoint: Self.sts))
        #expect(output.assumed && output.credentials.accessKeyID == "ASIAIOSFODNN7EXAMPLE")
        #expect(output.credentials.secretAccessKey == Self.secretKey && output.credentials.sessionToken == Self.sessionToken)
        #expect(output.credentials.assumedRoleARN == "arn:aws:sts::123456789012:assumed-role/dev/authctl-test")
        let request = try #require(parts.servers.sts.first)
        let form = FakeHTTP.form(request.body ?? Data())
        #expect(request.method == "POST" && request.url.query == nil && request.headers["Authorization"] == nil)
        #expect(form["Action"] == "AssumeRoleWithWebIdentity" && form["Version"] == "2011-06-15")
        #expect(form["RoleArn"] == "arn:aws:iam::123456789012:role/dev" && form["RoleSessionName"] == "ada")
        #expect(form["WebIdentityToken"] == idToken && form["DurationSeconds"] == "900")
        let again = try await parts.aws.run(
            .init(roleARN: "arn:aws:iam::123456789012:role/dev", sessionName: "ada", durationSeconds: 900, endpoint: Self.sts))
        #expect(!again.assumed && again.credentials == output.credentials && parts.servers.sts.count == 1)
    }

    @Test("credentials that expire within five minutes are assumed again")
    func nearExpiry() async throws {
        let parts = try await signedIn()
        parts.servers.stsAnswer = { Self.stsSuccess(expiresIn: 200) }
        _ = try await parts.aws.run(.init(roleARN: "arn:aws:iam::123456789012:role/dev", endpoint: Self.sts))
        _ = try await parts.aws.run(.init(roleARN: "arn:aws:iam::123456789012:role/dev", endpoint: Self.sts))
        #expect(parts.servers.sts.count == 2)
    }

    @Test("with --audience the web identity token is the exchanged one")
    func exchangedWebIdentity() async throws {
        let parts = try await signedIn()
        _ = try await parts.aws.run(
            .init(roleARN: "arn:aws:iam::123456789012:role/dev", endpoint: Self.sts, exchange: .init(audience: "sts.amazonaws.com")))
        let form = FakeHTTP.form(parts.servers.sts.first?.body ?? Data())
        #expect(form["WebIdentityToken"]?.hasPrefix("exchanged-for-sts.amazonaws.com") == true)
        #expect(parts.servers.exchanges.count == 1)
    }

    @Test(
        "STS's refusals are invalid-credential with the next step; its failures network-request-failed; no secret in any message",
        arguments: [
            ("InvalidIdentityToken", 400, AuthError.Code.invalidCredential, "OpenID Connect identity provider"),
            ("ExpiredTokenException", 400, .invalidCredential, "expired"),
            ("AccessDenied", 403, .invalidCredential, "trust policy"),
            ("IDPRejectedClaim", 403, .invalidCredential, "claim"),
            ("ValidationError", 400, .invalidCredential, "‹roleARN›"),
            ("IDPCommunicationError", 400, .networkRequestFailed, "could not reach"),
            ("InternalFailure", 500, .networkRequestFailed, "unavailable"),
        ])
    func stsErrors(code: String, status: Int, expected: AuthError.Code, words: String) async throws {
        let parts = try await signedIn()
        parts.servers.stsAnswer = { Self.stsError(code, status: status) }
        let idToken = try #require(parts.test.keystore.state.currentUser?.providerData.first?.tokens?.idToken)
        await #expect {
            try await parts.aws.run(.init(roleARN: "arn:aws:iam::123456789012:role/dev", endpoint: Self.sts))
        } throws: { error in
            guard let error = error as? AuthError else { return false }
            let text = error.message.description
            return error.code == expected && text.contains(words) && text.contains(code) && !text.contains(idToken)
        }
        #expect(parts.test.keystore.state.currentUser?.providerData.first?.tokens?.derivedCredentials == nil)
    }

    @Test("a bad role ARN, duration or session name is refused before anything is sent")
    func badArguments() async throws {
        let parts = try await signedIn()
        for input in [
            AWSRoleCredentials.Input(roleARN: "arn:aws:iam::123:role/x", endpoint: Self.sts),
            AWSRoleCredentials.Input(roleARN: "arn:aws:iam::123456789012:role/dev", durationSeconds: 60, endpoint: Self.sts),
            AWSRoleCredentials.Input(roleARN: "arn:aws:iam::123456789012:role/dev", sessionName: "a b", endpoint: Self.sts),
        ] {
            await #expect { try await parts.aws.run(input) } throws: { ($0 as? AuthError)?.code == .invalidArgument }
        }
        #expect(parts.servers.sts.isEmpty)
    }

    // MARK: - Google

    @Test("gcp-token's subject token: the ID token as id_token (or jwt when asked), an exchanged token as jwt, SAML refused")
    func gcpSubjectToken() async throws {
        let parts = try await signedIn()
        let gcp = GCPSubjectToken(refresh: parts.test.tokenRefresh(), exchange: parts.exchange)
        let idToken = try #require(parts.test.keystore.state.currentUser?.providerData.first?.tokens?.idToken)
        let plain = try await gcp.run(.init())
        #expect(plain.token == idToken && plain.tokenType == GCPSubjectToken.idTokenType && plain.expiresAt != nil)
        #expect(try await gcp.run(.init(askedType: GCPSubjectToken.jwtType)).tokenType == GCPSubjectToken.jwtType)
        let exchanged = try await gcp.run(.init(exchange: .init(audience: "//iam.googleapis.com/x")))
        #expect(exchanged.token.hasPrefix("exchanged-for-//iam.googleapis.com/x") && exchanged.tokenType == GCPSubjectToken.jwtType)
        await #expect { try await gcp.run(.init(askedType: GCPSubjectToken.saml2Type)) } throws: {
            ($0 as? AuthError)?.code == .invalidArgument
        }
    }

    // MARK: - STS endpoint and answer

    @Test("--sts-endpoint must be https, or http on a loopback address; --region builds the regional address")
    func endpoints() throws {
        #expect(try STSEndpoint.parse("http://127.0.0.1:5000/").host == "127.0.0.1")
        #expect(try STSEndpoint.parse("https://sts.eu-west-1.amazonaws.com/").scheme == "https")
        for bad in ["http://sts.example.com/", "http://127.0.0.1.nip.io/", "ftp://x/", "https://u:p@sts.example.com/", "https://x/?a=b"] {
            #expect(throws: AuthError.self) { try STSEndpoint.parse(bad) }
        }
        #expect(try STSEndpoint.url(region: nil).absoluteString == "https://sts.amazonaws.com/")
        #expect(try STSEndpoint.url(region: "eu-west-1").absoluteString == "https://sts.eu-west-1.amazonaws.com/")
        #expect(try STSEndpoint.url(region: "cn-north-1").absoluteString == "https://sts.cn-north-1.amazonaws.com.cn/")
        #expect(throws: AuthError.self) { try STSEndpoint.url(region: "eu-west-1.evil.example/") }
    }

    @Test(
        "an answer that is not STS's XML is refused as network-request-failed: HTML, a DTD, an entity, unclosed tags, two Credentials",
        arguments: [
            "<html><body>gateway</body></html>",
            "<!DOCTYPE x [<!ENTITY a \"b\">]><AssumeRoleWithWebIdentityResponse/>",
            "<AssumeRoleWithWebIdentityResponse>&xxe;</AssumeRoleWithWebIdentityResponse>",
            "<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult>",
            "not xml at all",
            "<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>ASIAIOSFODNN7EXAMPLE</AccessKeyId><SecretAccessKey>s</SecretAccessKey><SessionToken>t</SessionToken><Expiration>2030-01-01T00:00:00Z</Expiration></Credentials><Credentials/></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>",
            "<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>ASIAIOSFODNN7EXAMPLE</AccessKeyId><SecretAccessKey>s</SecretAccessKey><SessionToken>t</SessionToken><Expiration>tomorrow</Expiration></Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>",
            String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40),
        ])
    func notSTS(body: String) {
        #expect {
            try STSAnswer.parse(HTTPResponse(status: 200, body: Data(body.utf8)), place: "sts.test")
        } throws: { ($0 as? AuthError)?.code == .networkRequestFailed }
    }

    @Test("the reader takes entities, character references, CDATA, comments and prefixes")
    func xmlReader() throws {
        let root = try BoundedXML.parse(
            Data(
                "<?xml version=\"1.0\"?><!-- c --><s:A xmlns:s=\"u\"><B>x&amp;y&#65;&#x42;<![CDATA[<z>]]></B><!-- d --><C a='1'/></s:A>"
                    .utf8))
        #expect(root.name == "A" && root.only("B")?.text == "x&yAB<z>" && root.only("C")?.text == "")
    }

    @Test("ISO 8601 times as AWS writes them, and nothing else")
    func times() {
        #expect(ISO8601Time.parse("2026-11-25T21:04:05Z") == Date(timeIntervalSince1970: 1_795_640_645))
        #expect(ISO8601Time.parse("2026-11-25T21:04:05.123Z") == Date(timeIntervalSince1970: 1_795_640_645))
        #expect(ISO8601Time.parse("2026-11-25T21:04:05+00:00") == Date(timeIntervalSince1970: 1_795_640_645))
        for bad in ["2026-11-25 21:04:05Z", "2026-13-25T21:04:05Z", "2026-11-25T21:04:05+01:00", "2026-11-25T21:04:05", ""] {
            #expect(ISO8601Time.parse(bad) == nil)
        }
    }
}

/// The derived credentials in the keystore file: sealed with the tokens, and read back.
@Suite("Cloud credentials in the keystore")
final class DerivedCredentialsKeystoreTests: KeystoreDirectoryFixture {
    let directory: String

    init() throws { directory = try Self.privateDirectory("authctl-derived") }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    static let later = Date(timeIntervalSince1970: 1_900_000_000)

    /// Every field name of the derived credentials' records, for the schema test (KeystoreFormatTests).
    static var fieldNames: Set<String> {
        guard let data = try? KeystoreFile(state).encoded(), let object = JSONValue.object(from: data) else { return [] }
        // The map's keys are what was asked, not field names.
        let keys = Set(state.users.flatMap { $0.providerData.flatMap { $0.tokens?.derivedCredentials?.keys.map { $0 } ?? [] } })
        return KeystoreFormatTests.fieldNames(in: .object(object)).subtracting(keys)
    }

    var state: AccountState { Self.state }

    static var state: AccountState {
        var state = KeystoreFormatTests.expected
        state.users[0].providerData[0].tokens?.derivedCredentials = [
            "token-exchange?audience=a": DerivedCredential(
                .exchangedToken(ExchangedToken(token: "exchanged-secret-1", tokenType: "N_A", issuedTokenType: "urn:x", scopes: ["s"])),
                expiresAt: Self.later),
            "aws-sts?role_arn=r": DerivedCredential(
                .aws(
                    AWSTemporaryCredentials(
                        accessKeyID: "ASIAIOSFODNN7EXAMPLE", secretAccessKey: "aws-secret-key-1", sessionToken: "aws-session-token-1",
                        expiration: Self.later, assumedRoleARN: "arn:aws:sts::123456789012:assumed-role/dev/s")),
                expiresAt: Self.later),
        ]
        return state
    }

    @Test("plaintext: written under tokens.derivedCredentials and read back the same, by both readers")
    func plaintext() async throws {
        try await keystore().update { $0 = self.state }
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(text.contains("\"derivedCredentials\"") && text.contains("\"version\" : 1"))
        #expect(try keystore().read() == state)
        #expect(try keystore().readCurrentUser().currentUser == state.currentUser)
    }

    @Test("sealed: no exchanged token, secret key or session token in the file; all back with the key")
    func sealed() async throws {
        try await keystore().update { $0 = self.state }
        let key = directory + "/key"
        try Data(KeystoreKeyFile.newKeyText().utf8).write(to: URL(fileURLWithPath: key))
        chmod(key, 0o600)
        try await keystore().reseal(.keyFile(path: key))
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        for secret in ["exchanged-secret-1", "aws-secret-key-1", "aws-session-token-1", "derivedCredentials"] {
            #expect(!text.contains(secret), "\(secret) is in the sealed file")
        }
        let opened = keystore(KeystoreKeys(keyFile: key))
        #expect(try opened.read() == state)
        #expect(try opened.readCurrentUser().currentUser == state.currentUser)
    }

    @Test("the token hot path's reader takes them: the current user's record and the sealed secrets, without JSONDecoder")
    func hotPathReader() async throws {
        try await keystore().update { $0 = self.state }
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let record = try #require(KeystoreFile.decodeCurrentUser(file: fd), "the fast reader gave up on derivedCredentials")
        #expect(record.user?.domain == state.currentUser)
        let user = try #require(state.currentUser)
        let tokens = try #require(KeystoreRecord.User(user).providerData.first?.tokens)
        let secrets = SealedSecrets(
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, idToken: tokens.idToken,
            bound: .init(tokens: tokens.readable),
            derivedCredentials: tokens.derivedCredentials)
        let decoded = try #require(SealedSecrets.fastDecoded(try KeystoreFile.secretsEncoder.encode(secrets)))
        #expect(decoded == secrets)
    }

    @Test("users export carries none of them")
    func export() async throws {
        try await keystore().update { $0 = self.state }
        for format in UserExport.Format.allCases {
            let text = String(decoding: try UserExport.export(try keystore().read(), format: format), as: UTF8.self)
            #expect(!text.contains("exchanged-secret-1") && !text.contains("aws-secret-key-1") && !text.contains("ASIAIOSFODNN7EXAMPLE"))
        }
    }
}

/// A DPoP proof's header (its `typ` and the `jwk`'s `x`, `y`) and claims, as strings.
func DPoPProofParts(_ proof: String) -> (header: [String: String], claims: [String: String])? {
    let parts = proof.split(separator: ".").map(String.init)
    guard parts.count == 3, let head = Base64URL.decode(parts[0]), let body = Base64URL.decode(parts[1]),
        let header = JSONValue.object(from: head), let claims = JSONValue.object(from: body)
    else { return nil }
    func strings(_ object: [String: JSONValue]) -> [String: String] {
        object.compactMapValues { value in
            switch value {
            case .string(let text): text
            case .number(let number): "\(number)"
            default: nil
            }
        }
    }
    var flat = strings(header)
    if case .object(let jwk)? = header["jwk"] { flat.merge(strings(jwk)) { first, _ in first } }
    return (flat, strings(claims))
}
