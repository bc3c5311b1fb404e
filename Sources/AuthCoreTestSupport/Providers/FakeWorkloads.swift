import AuthCore
import Crypto
import Foundation
import _CryptoExtras

/// A workload registered at a fake provider: how its client may authenticate in a
/// client-credentials grant (RFC 6749 §4.4) — a secret, a registered public key
/// (`private_key_jwt`, RFC 7523) or a federated credential (a token of another issuer).
public struct WorkloadRegistration: Sendable {
    public enum Key: Sendable {
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
    }

    /// A federated credential: the issuer whose JWKS signs the token, and the `sub` and
    /// `aud` it must carry (Entra ID's federated identity credential).
    public struct Federation: Sendable {
        public var issuer: FakeFederatedIssuer
        public var subject: String
        public var audience: String

        public init(issuer: FakeFederatedIssuer, subject: String, audience: String) {
            self.issuer = issuer
            self.subject = subject
            self.audience = audience
        }
    }

    public var clientID: String
    public var secret: String?
    public var key: Key?
    /// The SHA-256 of the registered certificate's DER, when the provider asks for `x5t#S256`.
    public var certificateThumbprint: String?
    public var federation: Federation?

    public init(
        clientID: String, secret: String? = nil, key: Key? = nil, certificateThumbprint: String? = nil, federation: Federation? = nil
    ) {
        self.clientID = clientID
        self.secret = secret
        self.key = key
        self.certificateThumbprint = certificateThumbprint
        self.federation = federation
    }
}

/// Why a fake refused a client-credentials grant, with Microsoft's AADSTS number for it.
public struct WorkloadRefusal: Error, Sendable {
    public var error: String
    public var description: String
    public var aadsts: Int
    public var status: Int
}

/// The client authentication of a client-credentials grant, checked as a provider does.
/// `seenJTIs` holds the `jti` of every assertion accepted (replays are refused).
public enum WorkloadVerifier {
    public static let jwtBearer = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    public static func authenticate(
        form: [String: String], authorization: String?, registrations: [WorkloadRegistration], tokenEndpoint: String,
        seenJTIs: inout Set<String>, now: Date = Date()
    ) -> Result<WorkloadRegistration, WorkloadRefusal> {
        var clientID = form["client_id"]
        var basicSecret: String?
        if let authorization, authorization.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6))).flatMap({ String(data: $0, encoding: .utf8) }),
            let colon = decoded.firstIndex(of: ":")
        {
            clientID = String(decoded[..<colon]).removingPercentEncoding
            basicSecret = String(decoded[decoded.index(after: colon)...]).removingPercentEncoding
        }
        guard let clientID, let registration = registrations.first(where: { $0.clientID == clientID }) else {
            return .failure(
                refusal("unauthorized_client", "Application with identifier was not found in the directory", 700016, status: 400))
        }
        if let type = form["client_assertion_type"] {
            guard type == jwtBearer, let assertion = form["client_assertion"] else {
                return .failure(refusal("invalid_client", "Invalid client assertion type", 50027))
            }
            if let federation = registration.federation {
                return verifyFederated(assertion, federation, now: now).map { registration }
            }
            if let key = registration.key {
                return verifyPrivateKeyJWT(
                    assertion, registration: registration, key: key, tokenEndpoint: tokenEndpoint, seen: &seenJTIs, now: now
                )
                .map { registration }
            }
            return .failure(refusal("invalid_client", "The client has no key or federated credential", 700027))
        }
        guard let secret = registration.secret, (basicSecret ?? form["client_secret"]) == secret else {
            return .failure(refusal("invalid_client", "Invalid client secret provided", 7000215, status: 401))
        }
        return .success(registration)
    }

    /// The JWT-bearer grant (RFC 7523 §2.1): a client that sends credentials is authenticated
    /// as above; one that sends none must be registered without any (a public client). The
    /// assertion must be a token of the client's federation whose audience is the server, and
    /// is taken once (`seenJTIs`).
    public static func jwtBearerGrant(
        form: [String: String], authorization: String?, registrations: [WorkloadRegistration], tokenEndpoint: String,
        seenJTIs: inout Set<String>, now: Date = Date()
    ) -> Result<WorkloadRegistration, WorkloadRefusal> {
        let client: WorkloadRegistration
        if form["client_secret"] != nil || form["client_assertion_type"] != nil || authorization?.hasPrefix("Basic ") == true {
            switch authenticate(
                form: form, authorization: authorization, registrations: registrations, tokenEndpoint: tokenEndpoint, seenJTIs: &seenJTIs,
                now: now)
            {
            case .failure(let refusal): return .failure(refusal)
            case .success(let registration): client = registration
            }
        } else {
            guard let id = form["client_id"], let registration = registrations.first(where: { $0.clientID == id }) else {
                return .failure(refusal("invalid_client", "unknown client", 700016, status: 401))
            }
            guard registration.secret == nil, registration.key == nil else {
                return .failure(refusal("invalid_client", "the client must authenticate", 7000218, status: 401))
            }
            client = registration
        }
        guard let assertion = form["assertion"], let federation = client.federation else {
            return .failure(refusal("invalid_grant", "no assertion, or no trusted issuer for this client", 50027))
        }
        if case .failure(let refused) = verifyFederated(assertion, federation, now: now) {
            return .failure(refusal("invalid_grant", refused.description, refused.aadsts))
        }
        guard let jti = parts(assertion)?.claims["jti"]?.stringValue, seenJTIs.insert(jti).inserted else {
            return .failure(refusal("invalid_grant", "the assertion was used before (replay)", 700025))
        }
        return .success(client)
    }

    static func refusal(_ error: String, _ description: String, _ aadsts: Int, status: Int = 400) -> WorkloadRefusal {
        WorkloadRefusal(error: error, description: description, aadsts: aadsts, status: status)
    }

    /// Header, claims, signing input and signature of a compact JWS.
    static func parts(_ token: String) -> (header: [String: JSONValue], claims: [String: JSONValue], input: String, signature: Data)? {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let header = Base64URL.decode(String(segments[0])).flatMap(JSONValue.object(from:)),
            let claims = Base64URL.decode(String(segments[1])).flatMap(JSONValue.object(from:)),
            let signature = Base64URL.decode(String(segments[2]))
        else { return nil }
        return (header, claims, "\(segments[0]).\(segments[1])", signature)
    }

    static func audiences(_ claims: [String: JSONValue]) -> [String] {
        if let single = claims["aud"]?.stringValue { return [single] }
        if case .array(let values)? = claims["aud"] { return values.compactMap(\.stringValue) }
        return []
    }

    static func verifyFederated(_ token: String, _ federation: WorkloadRegistration.Federation, now: Date) -> Result<Void, WorkloadRefusal>
    {
        guard let (header, claims, input, signature) = parts(token), header["alg"]?.stringValue == "RS256",
            federation.issuer.verifiesByJWKS(input: input, signature: signature, keyID: header["kid"]?.stringValue)
        else {
            return .failure(refusal("invalid_client", "AADSTS700211: the assertion's signature is not the issuer's", 700211))
        }
        guard claims["iss"]?.stringValue == federation.issuer.issuer,
            claims["sub"]?.stringValue == federation.subject, audiences(claims).contains(federation.audience)
        else {
            return .failure(refusal("invalid_client", "AADSTS70021: No matching federated identity record found", 70021))
        }
        guard case .number(let exp)? = claims["exp"], exp > now.timeIntervalSince1970 else {
            return .failure(refusal("invalid_client", "AADSTS700024: Client assertion is not within its valid time range", 700024))
        }
        return .success(())
    }

    static func verifyPrivateKeyJWT(
        _ token: String, registration: WorkloadRegistration, key: WorkloadRegistration.Key, tokenEndpoint: String, seen: inout Set<String>,
        now: Date
    ) -> Result<Void, WorkloadRefusal> {
        guard let (header, claims, input, signature) = parts(token) else {
            return .failure(refusal("invalid_client", "the assertion is not a JWT", 50027))
        }
        let digest = SHA256.hash(data: Data(input.utf8))
        let valid: Bool =
            switch (key, header["alg"]?.stringValue) {
            case (.rsa(let key), "RS256"):
                key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: digest, padding: .insecurePKCS1v1_5)
            case (.rsa(let key), "PS256"):
                key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: digest, padding: .PSS)
            case (.p256(let key), "ES256"):
                (try? P256.Signing.ECDSASignature(rawRepresentation: signature)).map { key.isValidSignature($0, for: digest) } ?? false
            default: false
            }
        guard valid else {
            return .failure(refusal("invalid_client", "AADSTS700027: the signature does not match the registered key", 700027))
        }
        if let thumbprint = registration.certificateThumbprint, header["x5t#S256"]?.stringValue != thumbprint {
            return .failure(refusal("invalid_client", "AADSTS700027: the certificate is not registered", 700027))
        }
        guard claims["iss"]?.stringValue == registration.clientID, claims["sub"]?.stringValue == registration.clientID,
            audiences(claims) == [tokenEndpoint]
        else {
            return .failure(refusal("invalid_client", "AADSTS700023: the assertion's iss, sub or aud is wrong", 700023))
        }
        guard case .number(let exp)? = claims["exp"], exp > now.timeIntervalSince1970, exp <= now.timeIntervalSince1970 + 600 + 5 else {
            return .failure(refusal("invalid_client", "AADSTS700024: Client assertion is not within its valid time range", 700024))
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, seen.insert(jti).inserted else {
            return .failure(refusal("invalid_client", "AADSTS700025: the assertion's jti was used before", 700025))
        }
        return .success(())
    }

    /// The access-token answer of a granted client-credentials request.
    public static func tokenAnswer(scope: String?, lifetime: JSONValue) -> (token: String, response: HTTPResponse) {
        let token = "wat-" + UUID().uuidString
        var body: [String: JSONValue] = ["access_token": .string(token), "token_type": .string("Bearer"), "expires_in": lifetime]
        if let scope { body["scope"] = .string(scope) }
        return (token, FakeHTTP.json(.object(body)))
    }
}

/// A second local issuer — a CI service such as GitHub Actions or GitLab — whose tokens a
/// workload presents as federated assertions. Its JWKS is what a provider trusts.
public final class FakeFederatedIssuer: @unchecked Sendable {
    public let issuer: String
    public let signer: TestTokenSigner

    public init(issuer: String = "https://token.actions.example") throws {
        self.issuer = issuer
        signer = try TestTokenSigner()
    }

    /// A token of this issuer.
    public func token(subject: String, audience: String, expiresIn: TimeInterval = 300, issuer: String? = nil, unpublishedKey: Bool = false)
        -> String
    {
        let now = Date().timeIntervalSince1970.rounded()
        return signer.sign(
            claims: .object([
                "iss": .string(issuer ?? self.issuer), "sub": .string(subject), "aud": .string(audience),
                "iat": .number(now), "exp": .number(now + expiresIn), "jti": .string(UUID().uuidString),
            ]), unpublishedKey: unpublishedKey)
    }

    /// Verifies an RS256 signature with the RSA key of the published JWKS that has `keyID`.
    func verifiesByJWKS(input: String, signature: Data, keyID: String?) -> Bool {
        guard case .array(let keys)? = signer.jwks.objectValue?["keys"] else { return false }
        for key in keys {
            guard let fields = key.objectValue, fields["kty"]?.stringValue == "RSA", fields["kid"]?.stringValue == keyID,
                let n = fields["n"]?.stringValue.flatMap(Base64URL.decode), let e = fields["e"]?.stringValue.flatMap(Base64URL.decode),
                let publicKey = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { continue }
            let valid = publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: Data(input.utf8)),
                padding: .insecurePKCS1v1_5)
            if valid { return true }
        }
        return false
    }
}

/// GitHub Actions' OIDC token service, in test: `GET /token?api-version=2.0&audience=AUD`
/// with `Authorization: Bearer REQUEST_TOKEN`, answered `{"value": JWT}` of `issuer`.
public final class FakeActionsTokenService: @unchecked Sendable {
    public let issuer: FakeFederatedIssuer
    public let requestToken = "req-" + UUID().uuidString
    public var subject = "repo:octo/app:ref:refs/heads/main"
    /// Replaces the answer (a hostile or broken service).
    public var answerOverride: HTTPResponse? {
        get { lock.withLock { override } }
        set { lock.withLock { override = newValue } }
    }
    public private(set) var server: LoopbackHTTPServer!
    private let lock = NSLock()
    private var override: HTTPResponse?
    private var audiences: [String] = []

    public init(issuer: FakeFederatedIssuer) throws {
        self.issuer = issuer
        server = try LoopbackHTTPServer { [weak self] request in
            // A request that arrives while the fake goes (a test ended with a connection open) gets a 503, not a crash.
            self?.handle(request) ?? HTTPResponse(status: 503)
        }
    }

    deinit { server.stop() }

    /// The environment of a job with `permissions: id-token: write`.
    public var environment: [String: String] {
        ["ACTIONS_ID_TOKEN_REQUEST_URL": "\(server.baseURL)/token?api-version=2.0", "ACTIONS_ID_TOKEN_REQUEST_TOKEN": requestToken]
    }

    /// The audience of every token asked, in order.
    public var askedAudiences: [String] { lock.withLock { audiences } }

    private func handle(_ request: ReceivedRequest) -> HTTPResponse {
        guard request.method == "GET", request.path == "/token", request.headers["authorization"] == "Bearer \(requestToken)" else {
            return HTTPResponse(status: 401, body: Data("unauthorized".utf8))
        }
        let query = FakeHTTP.form(Data((request.query ?? "").utf8))
        guard query["api-version"] == "2.0", let audience = query["audience"] else { return HTTPResponse(status: 400) }
        lock.withLock { audiences.append(audience) }
        if let override = answerOverride { return override }
        return FakeHTTP.json(.object(["value": .string(issuer.token(subject: subject, audience: audience))]))
    }
}
