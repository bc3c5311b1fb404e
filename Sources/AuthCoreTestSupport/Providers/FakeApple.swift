import AuthCore
import Crypto
import Foundation

/// Sign in with Apple, in the test process on 127.0.0.1, behaving like Apple's service as
/// its documentation describes it (`<issuer>/auth/{authorize,token,keys,revoke}`):
///
/// - `authorize` insists on `response_mode=form_post` when `name` or `email` is asked, and
///   answers with a page that posts `code`, `state` — and, on the first authorization of a
///   user only, the `user` JSON with the name — to the redirect URI;
/// - `token` and `revoke` demand a client secret that is an ES256 JWT signed with the
///   app's key (`kid`, `iss` = team id, `sub` = client id, `aud` = issuer, `exp` ≤ six
///   months after `iat`), else `invalid_client`;
/// - ID tokens are RS256, carry the nonce as sent (the hashed one), and state
///   `email_verified` and `is_private_email` as strings, as Apple does.
///
/// The app's `.p8` key is generated at test time.
public final class FakeApple: @unchecked Sendable {
    public struct Behaviour: Sendable {
        public var subject = "001234.5f3b2c0e9a8d4e7f8a1b2c3d4e5f6a7b.1234"
        public var email = "ada@example.com"
        public var privateRelay = false
        /// Apple sends `"true"`; some paths send JSON booleans.
        public var booleansAsStrings = true
        public var firstName = "Ada"
        public var lastName = "Lovelace"
        public init() {}
    }

    public let clientID = "com.example.web"
    public let teamID = "ABCDE12345"
    public let keyID = "XYZ987ABCD"
    /// The app's private key, as Apple's developer site hands it out (PKCS#8 PEM).
    public let privateKeyPEM: String
    public let signer: TestTokenSigner
    public private(set) var server: LoopbackHTTPServer!

    private let publicKey: P256.Signing.PublicKey
    private let lock = NSLock()
    private var behaviourValue = Behaviour()
    private var codes: [String: (redirectURI: String, nonce: String?)] = [:]
    private var refreshTokens: Set<String> = []
    private var authorizedSubjects: Set<String> = []
    private var counters: [String: Int] = [:]
    private var revokedTokens: [String] = []
    private var secrets: [String] = []
    private var lastAuthorize: [String: String] = [:]
    private var clientSecretClaims: [[String: JSONValue]] = []

    /// The path the fake serves under (empty: the root), as a gateway or a test server that
    /// hosts several providers would: requests elsewhere get a 404.
    public let issuerPath: String

    public init(issuerPath: String = "") throws {
        self.issuerPath = issuerPath
        let key = P256.Signing.PrivateKey()
        privateKeyPEM = key.pemRepresentation
        publicKey = key.publicKey
        signer = try TestTokenSigner()
        server = try LoopbackHTTPServer { [weak self] request in
            // A request that arrives while the fake goes (a test ended with a connection open) gets a 503, not a crash.
            self?.handle(request) ?? HTTPResponse(status: 503)
        }
    }

    deinit { server.stop() }

    /// The issuer (`https://appleid.apple.com` on the real service).
    public var issuer: String { server.baseURL + issuerPath }

    public var behaviour: Behaviour {
        get { lock.withLock { behaviourValue } }
        set { lock.withLock { behaviourValue = newValue } }
    }

    public func count(_ name: String) -> Int { lock.withLock { counters[name] ?? 0 } }
    public var revoked: [String] { lock.withLock { revokedTokens } }
    public var lastAuthorizationRequest: [String: String] { lock.withLock { lastAuthorize } }
    /// The claims of every client secret the token and revoke endpoints accepted.
    public var acceptedClientSecrets: [[String: JSONValue]] { lock.withLock { clientSecretClaims } }
    /// Every code, state, nonce, token and client secret seen or issued, to prove none leaks.
    public var issuedSecrets: [String] { lock.withLock { secrets } }

    private func bump(_ name: String) { lock.withLock { counters[name, default: 0] += 1 } }
    private func remember(_ values: String?...) { lock.withLock { secrets += values.compactMap { $0 } } }

    private func handle(_ original: ReceivedRequest) -> HTTPResponse {
        guard original.path.hasPrefix(issuerPath + "/") else { return HTTPResponse(status: 404, body: Data("not found".utf8)) }
        var request = original
        request.target = String(original.target.dropFirst(issuerPath.count))
        switch (request.method, request.path) {
        case ("GET", "/auth/authorize"):
            bump("authorize")
            return authorize(FakeApple.form(Data((request.query ?? "").utf8)))
        case ("POST", "/auth/token"):
            bump("token")
            return token(FakeApple.form(request.body))
        case ("GET", "/auth/keys"):
            bump("keys")
            return json(signer.jwks)
        case ("POST", "/auth/revoke"):
            bump("revoke")
            let form = FakeApple.form(request.body)
            if let error = checkClient(form) { return error }
            lock.withLock {
                if let token = form["token"] {
                    revokedTokens.append(token)
                    refreshTokens.remove(token)
                }
            }
            return HTTPResponse(status: 200)
        default:
            return HTTPResponse(status: 404, body: Data("not found".utf8))
        }
    }

    private func authorize(_ parameters: [String: String]) -> HTTPResponse {
        lock.withLock { lastAuthorize = parameters }
        remember(parameters["state"], parameters["nonce"])
        guard parameters["client_id"] == clientID, parameters["response_type"] == "code",
            let redirectURI = parameters["redirect_uri"], let state = parameters["state"]
        else { return page(400, "invalid_request") }
        let scopes = Set((parameters["scope"] ?? "").split(separator: " ").map(String.init))
        if !scopes.isDisjoint(with: ["name", "email"]), parameters["response_mode"] != "form_post" {
            return page(400, "invalid_request: response_mode must be form_post when name or email scope is requested")
        }
        let behaviour = self.behaviour
        let code = "ac." + UUID().uuidString
        remember(code)
        var fields = [("code", code), ("state", state)]
        let firstTime = lock.withLock {
            codes[code] = (redirectURI, parameters["nonce"])
            return authorizedSubjects.insert(behaviour.subject).inserted
        }
        if firstTime, scopes.contains("name") {
            fields.append(
                (
                    "user",
                    #"{"name":{"firstName":"\#(behaviour.firstName)","lastName":"\#(behaviour.lastName)"},"email":"\#(email(behaviour))"}"#
                ))
        }
        guard parameters["response_mode"] == "form_post" else {
            var components = URLComponents(string: redirectURI)!
            components.queryItems = fields.map { URLQueryItem(name: $0.0, value: $0.1) }
            return HTTPResponse(status: 302, headers: ["Location": components.url!.absoluteString])
        }
        return FakeHTTP.autoPost(to: redirectURI, fields)
    }

    private func token(_ form: [String: String]) -> HTTPResponse {
        if let error = checkClient(form) { return error }
        let behaviour = self.behaviour
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"], let grant = lock.withLock({ codes.removeValue(forKey: code) }),
                grant.redirectURI == form["redirect_uri"]
            else { return oauthError("invalid_grant") }
            let refreshToken = "r." + UUID().uuidString
            lock.withLock { _ = refreshTokens.insert(refreshToken) }
            return tokens(behaviour, nonce: grant.nonce, refreshToken: refreshToken)
        case "refresh_token":
            guard let token = form["refresh_token"], lock.withLock({ refreshTokens.contains(token) }) else {
                return oauthError("invalid_grant")
            }
            return tokens(behaviour, nonce: nil, refreshToken: nil)
        default:
            return oauthError("unsupported_grant_type")
        }
    }

    private func tokens(_ behaviour: Behaviour, nonce: String?, refreshToken: String?) -> HTTPResponse {
        let accessToken = "a." + UUID().uuidString
        let idToken = self.idToken(behaviour, nonce: nonce)
        remember(accessToken, refreshToken, idToken)
        var body: [String: JSONValue] = [
            "access_token": .string(accessToken), "token_type": "Bearer", "expires_in": .number(3600), "id_token": .string(idToken),
        ]
        if let refreshToken { body["refresh_token"] = .string(refreshToken) }
        return json(.object(body))
    }

    /// An ID token as Apple signs it.
    public func idToken(_ behaviour: Behaviour, nonce: String?) -> String {
        let now = Date().timeIntervalSince1970.rounded()
        func flag(_ value: Bool) -> JSONValue { behaviour.booleansAsStrings ? .string(value ? "true" : "false") : .bool(value) }
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "aud": .string(clientID), "sub": .string(behaviour.subject),
            "iat": .number(now), "exp": .number(now + 600), "auth_time": .number(now),
            "email": .string(email(behaviour)), "email_verified": flag(true), "is_private_email": flag(behaviour.privateRelay),
            "real_user_status": .number(2), "nonce_supported": .bool(true),
        ]
        if let nonce { claims["nonce"] = .string(nonce) }
        return signer.sign(claims: .object(claims))
    }

    private func email(_ behaviour: Behaviour) -> String {
        behaviour.privateRelay ? "x7qk2m9v4t@privaterelay.appleid.com" : behaviour.email
    }

    /// Apple's client authentication: `client_id` and a `client_secret` JWT in the form.
    private func checkClient(_ form: [String: String]) -> HTTPResponse? {
        guard form["client_id"] == clientID, let secret = form["client_secret"] else { return oauthError("invalid_client") }
        remember(secret)
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]), let payloadData = Base64URL.decode(parts[1]),
            let signatureData = Base64URL.decode(parts[2]),
            let header = JSONValue.object(from: headerData), let claims = JSONValue.object(from: payloadData),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)),
            header["alg"] == "ES256", header["kid"] == .string(keyID),
            claims["iss"] == .string(teamID), claims["sub"] == .string(clientID), claims["aud"] == .string(issuer),
            let issuedAt = claims["iat"]?.numberValue, let expiry = claims["exp"]?.numberValue,
            expiry > Date().timeIntervalSince1970, expiry - issuedAt <= AppleClientSecret.maximumLifetime
        else { return oauthError("invalid_client") }
        lock.withLock { clientSecretClaims.append(claims) }
        return nil
    }

    private func json(_ value: JSONValue) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: try! encoder.encode(value))
    }

    private func oauthError(_ error: String) -> HTTPResponse {
        HTTPResponse(status: 400, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"\#(error)"}"#.utf8))
    }

    private func page(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/html"], body: Data("<html><body>\(text)</body></html>".utf8))
    }

    static func form(_ body: Data) -> [String: String] { FakeIdentityProvider.form(body) }
}
