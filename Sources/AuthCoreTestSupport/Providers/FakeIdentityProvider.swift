import AuthCore
import Crypto
import Foundation
import _CryptoExtras

/// An OpenID Connect provider in the test process, on 127.0.0.1, that behaves like a real
/// one (discovery, JWKS, authorize with a 302 back to the redirect URI, token endpoint with
/// PKCE checks and refresh-token rotation, revocation) — and, on request, like a hostile or
/// broken one (see `Behaviour`).
public final class FakeIdentityProvider: @unchecked Sendable {
    /// What the provider does; every field defaults to correct behaviour.
    public struct Behaviour: Sendable {
        public var subject = "248289761001"
        public var email: String? = "ada@example.com"
        public var emailVerified: JSONValue = .bool(true)
        public var name: String? = "Ada Lovelace"
        public var accessTokenLifetime: JSONValue = .number(3600)
        /// Appended to every access token issued (a lying provider: shell syntax, spaces).
        public var accessTokenSuffix = ""
        /// Overrides the `iss` claim of ID tokens.
        public var idTokenIssuer: String?
        /// Overrides the `aud` claim.
        public var idTokenAudience: JSONValue?
        public var idTokenAuthorizedParty: String?
        /// Overrides the `nonce` claim (nil: echo the request's).
        public var idTokenNonce: String?
        /// Seconds from now; `exp` and `iat`.
        public var idTokenExpiresIn: TimeInterval = 3600
        public var idTokenIssuedAgo: TimeInterval = 0
        public var expAsString = false
        public var signing: TestTokenSigner.Signing = .rs256
        /// Sign with a key that is not in the JWKS (same kid).
        public var signWithUnpublishedKey = false
        public var discoveryIssuer: String?
        /// Sends this `state` back instead of the request's (a forged or stale redirect).
        public var forgedState: String?
        public var authorizeError: String?
        public var authorizeErrorDescription: String?
        /// Add `iss` to the authorization response (RFC 9207), and advertise it.
        public var sendIssuerOnRedirect = false
        public var issuerOnRedirect: String?
        /// Token endpoint answers: nil = normal.
        public var tokenEndpointOverride: HTTPResponse?
        public var refreshError: String?
        public var rotateRefreshTokens = true
        /// A provider that breaks RFC 6749 §6: the refresh token it rotates on a refresh that
        /// names `scope` carries only that scope, and a later refresh with it gets no more
        /// (asked for more: `invalid_scope`). It answers with the scope asked, when one is.
        public var narrowRotatedRefreshTokens = false
        public var idTokenOnRefresh = true
        public var refreshedSubject: String?
        public var revocationSupported = true
        /// Delay of each token-endpoint answer (to widen races in concurrency tests).
        public var tokenDelay: TimeInterval = 0
        /// A confidential client: the token endpoint then requires this secret, by HTTP
        /// Basic (`client_secret_basic`) or, when `secretInBody`, in the form (`client_secret_post`).
        public var clientSecret: String?
        public var secretInBody = false
        /// The device flow (RFC 8628): advertised when true.
        public var deviceAuthorizationSupported = true
        /// What the token endpoint answers to each device-code poll, in order: an OAuth
        /// error (`authorization_pending`, `slow_down`, `access_denied`, `expired_token`)
        /// or `approve`. After the list: `approve`.
        public var devicePolls: [String] = ["authorization_pending", "approve"]
        public var deviceInterval: JSONValue? = .number(5)
        public var deviceExpiresIn: TimeInterval = 900
        public var deviceVerificationComplete = true
        /// The device authorization's `user_code`, and the path of its `verification_uri`
        /// (a lying provider: terminal escapes in what the person is shown).
        public var deviceUserCode = "WDJB-MJHT"
        public var deviceVerificationPath = "/activate"
        /// The HTTP status of OAuth error answers (token, device and revocation endpoints):
        /// 400 as RFC 6749 §5.2 says, 200 as GitHub's OAuth server answers.
        public var oauthErrorStatus = 400
        /// Clients that may use the client-credentials grant (FakeWorkloads.swift).
        public var workloads: [WorkloadRegistration] = []
        /// The revocation endpoint answers this OAuth error (with `oauthErrorStatus`).
        public var revocationError: String?
        /// Where the key set is served (a server path), instead of `<issuer>/jwks`.
        public var jwksPath: String?
        /// Members added to the key set document (a hostile provider's document that is also
        /// a discovery document).
        public var jwksExtraMembers: [String: JSONValue] = [:]
        /// Token introspection (RFC 7662) at `/introspect`, advertised when true.
        public var introspectionSupported = false
        /// The userinfo endpoint (OIDC Core §5.3) at `/userinfo`, advertised when true.
        public var userinfoSupported = false
        /// The authorization endpoint refuses every redirect URI as unregistered (an error
        /// page, as real providers show, never a redirect to the unregistered URI).
        public var refuseRedirectURI = false
        /// Sends a `Date` header this many seconds off the real time on every answer (nil: none).
        public var dateOffset: TimeInterval?

        public init() {}
    }

    public let clientID = "authctl-test-client"
    public private(set) var server: LoopbackHTTPServer!
    private let lock = NSLock()
    private var behaviourValue = Behaviour()
    public let signer: TestTokenSigner
    private var codes: [String: (redirectURI: String, challenge: String?, nonce: String?, clientID: String)] = [:]
    private var refreshTokens: Set<String> = []
    /// The access tokens still active (issued, their session not ended).
    private var accessTokens: Set<String> = []
    /// The scope a refresh token was narrowed to (`narrowRotatedRefreshTokens`); absent: the sign-in's.
    private var narrowedScopes: [String: String] = [:]
    private var counters: [String: Int] = [:]
    private var revokedTokens: [String] = []
    private var revokingClients: [String] = []
    private var authorizationParameters: [String: String] = [:]
    private var secrets: [String] = []
    private var agents: [(path: String, userAgent: String)] = []

    /// The path under which the provider serves (its issuer is `http://127.0.0.1:PORT<basePath>`).
    public let basePath: String

    public init(basePath: String = "") throws {
        self.basePath = basePath
        signer = try TestTokenSigner()
        server = try LoopbackHTTPServer { [weak self] request in
            // A request that arrives while the fake goes (a test ended with a connection open) gets a 503, not a crash.
            self?.handle(request) ?? HTTPResponse(status: 503)
        }
    }

    deinit { server.stop() }

    public var issuer: String { server.baseURL + basePath }

    public var behaviour: Behaviour {
        get { lock.withLock { behaviourValue } }
        set { lock.withLock { behaviourValue = newValue } }
    }

    public func update(_ change: (inout Behaviour) -> Void) { lock.withLock { change(&behaviourValue) } }

    /// How often an endpoint was called: "authorize", "token", "refresh", "discovery", "jwks", "revoke".
    public func count(_ name: String) -> Int { lock.withLock { counters[name] ?? 0 } }
    public var revoked: [String] { lock.withLock { revokedTokens } }
    /// The client that asked each revocation: HTTP Basic's id, else the form's `client_id`.
    public var revokers: [String] { lock.withLock { revokingClients } }
    /// The parameters of the last authorization request.
    public var lastAuthorizationRequest: [String: String] { lock.withLock { authorizationParameters } }
    /// Every code, verifier, state, nonce and token this provider saw or issued, to prove none leaks.
    public var issuedSecrets: [String] { lock.withLock { secrets } }
    /// The path and `User-Agent` of every request, in order ("" when a request had none).
    public var userAgents: [(path: String, userAgent: String)] { lock.withLock { agents } }

    private func remember(_ values: String?...) { lock.withLock { secrets += values.compactMap { $0 } } }

    /// Starts signing with a new `kid` (a key rotation): tokens carry it, and the JWKS serves it.
    public func rotateKeys(to kid: String) { signer.keyID = kid }

    private func bump(_ name: String) { lock.withLock { counters[name, default: 0] += 1 } }

    /// Ends every session at the provider (an administrator's revocation, a password change):
    /// no refresh token or access token it issued is accepted any more.
    public func endSessions() {
        lock.withLock {
            refreshTokens.removeAll()
            accessTokens.removeAll()
        }
    }

    // MARK: Routing

    private func handle(_ request: ReceivedRequest) -> HTTPResponse {
        var response = route(request)
        if let offset = behaviour.dateOffset { response.headers["Date"] = Self.httpDate(Date().addingTimeInterval(offset)) }
        return response
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    private func route(_ request: ReceivedRequest) -> HTTPResponse {
        let behaviour = self.behaviour
        lock.withLock { agents.append((request.path, request.headers["user-agent"] ?? "")) }
        if request.method == "GET", let jwksPath = behaviour.jwksPath, request.path == jwksPath {
            bump("jwks")
            return json(jwks(behaviour))
        }
        guard request.path.hasPrefix(basePath) else { return HTTPResponse(status: 404, body: Data("not found".utf8)) }
        switch (request.method, String(request.path.dropFirst(basePath.count))) {
        case ("GET", "/.well-known/openid-configuration"):
            bump("discovery")
            return json(discovery(behaviour))
        case ("GET", "/jwks"):
            bump("jwks")
            return json(jwks(behaviour))
        case ("GET", "/authorize"):
            bump("authorize")
            return authorize(request, behaviour)
        case ("POST", "/token"):
            bump("token")
            if behaviour.tokenDelay > 0 { Thread.sleep(forTimeInterval: behaviour.tokenDelay) }
            if let override = behaviour.tokenEndpointOverride { return override }
            return token(request, behaviour)
        case ("POST", "/introspect") where behaviour.introspectionSupported:
            bump("introspect")
            let token = Self.form(request.body)["token"] ?? ""
            let active = lock.withLock { refreshTokens.contains(token) || accessTokens.contains(token) }
            return json(.object(active ? ["active": .bool(true), "client_id": .string(clientID)] : ["active": .bool(false)]))
        case ("GET", "/userinfo") where behaviour.userinfoSupported:
            bump("userinfo")
            let token = request.headers["authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil } ?? ""
            guard lock.withLock({ accessTokens.contains(token) }) else {
                return HTTPResponse(
                    status: 401,
                    headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\", error_description=\"The access token is not active\""])
            }
            return json(.object(["sub": .string(behaviour.subject)]))
        case ("POST", "/device"):
            bump("device")
            return deviceAuthorization(request, behaviour)
        case ("POST", "/revoke"):
            bump("revoke")
            let form = Self.form(request.body)
            let basic = request.headers["authorization"].flatMap { header -> String? in
                guard header.hasPrefix("Basic "), let decoded = Data(base64Encoded: String(header.dropFirst(6))) else { return nil }
                return String(decoding: decoded, as: UTF8.self).split(separator: ":", maxSplits: 1).first
                    .map { String($0).removingPercentEncoding ?? String($0) }
            }
            lock.withLock {
                if let token = form["token"] {
                    revokedTokens.append(token)
                    refreshTokens.remove(token)
                }
                revokingClients.append(basic ?? form["client_id"] ?? "")
            }
            if let error = behaviour.revocationError { return oauthError(error, "revocation refused", status: behaviour.oauthErrorStatus) }
            return HTTPResponse(status: 200)
        default:
            return HTTPResponse(status: 404, body: Data("not found".utf8))
        }
    }

    private func discovery(_ behaviour: Behaviour) -> JSONValue {
        var document: [String: JSONValue] = [
            "issuer": .string(behaviour.discoveryIssuer ?? issuer),
            "authorization_endpoint": .string("\(issuer)/authorize"),
            "token_endpoint": .string("\(issuer)/token"),
            "jwks_uri": .string(behaviour.jwksPath.map { server.baseURL + $0 } ?? "\(issuer)/jwks"),
            "response_types_supported": .array([.string("code"), .string("id_token")]),
            "subject_types_supported": .array([.string("public")]),
            "id_token_signing_alg_values_supported": .array([.string("RS256")]),
            "code_challenge_methods_supported": .array([.string("S256")]),
            "token_endpoint_auth_methods_supported": .array(
                behaviour.secretInBody ? [.string("client_secret_post")] : [.string("none"), .string("client_secret_basic")]),
        ]
        if behaviour.revocationSupported { document["revocation_endpoint"] = .string("\(issuer)/revoke") }
        if behaviour.introspectionSupported { document["introspection_endpoint"] = .string("\(issuer)/introspect") }
        if behaviour.userinfoSupported { document["userinfo_endpoint"] = .string("\(issuer)/userinfo") }
        if behaviour.deviceAuthorizationSupported { document["device_authorization_endpoint"] = .string("\(issuer)/device") }
        if behaviour.sendIssuerOnRedirect { document["authorization_response_iss_parameter_supported"] = .bool(true) }
        return .object(document)
    }

    private func jwks(_ behaviour: Behaviour) -> JSONValue {
        guard !behaviour.jwksExtraMembers.isEmpty, case .object(var members) = signer.jwks else { return signer.jwks }
        members.merge(behaviour.jwksExtraMembers) { old, _ in old }
        return .object(members)
    }

    private func authorize(_ request: ReceivedRequest, _ behaviour: Behaviour) -> HTTPResponse {
        let parameters = Self.form(Data((request.query ?? "").utf8))
        lock.withLock { authorizationParameters = parameters }
        remember(parameters["state"], parameters["nonce"], parameters["code_challenge"])
        if parameters["response_type"] == "id_token" { return implicitAuthorize(parameters, behaviour) }
        guard let redirectURI = parameters["redirect_uri"], let state = parameters["state"],
            parameters["client_id"] == clientID, parameters["response_type"] == "code"
        else {
            return HTTPResponse(status: 400, body: Data("bad authorization request".utf8))
        }
        if behaviour.refuseRedirectURI {
            return HTTPResponse(
                status: 400, headers: ["Content-Type": "text/html"],
                body: Data(
                    "<html><body><h1>Error 400: redirect_uri_mismatch</h1><p>The redirect URI in the request does not match the ones registered for the client.</p></body></html>"
                        .utf8))
        }
        var response: [(String, String)] = [("state", behaviour.forgedState ?? state)]
        if let error = behaviour.authorizeError {
            response.insert(("error", error), at: 0)
            if let description = behaviour.authorizeErrorDescription { response.append(("error_description", description)) }
        } else {
            let code = "code-" + UUID().uuidString
            lock.withLock {
                codes[code] = (redirectURI, parameters["code_challenge"], parameters["nonce"], parameters["client_id"] ?? "")
            }
            response.insert(("code", code), at: 0)
            remember(code)
        }
        if behaviour.sendIssuerOnRedirect || behaviour.issuerOnRedirect != nil {
            response.append(("iss", behaviour.issuerOnRedirect ?? issuer))
        }
        // OAuth 2.0 Form Post Response Mode, when asked (as Apple's and Microsoft's servers do).
        if parameters["response_mode"] == "form_post" { return FakeHTTP.autoPost(to: redirectURI, response) }
        return FakeHTTP.redirect(to: redirectURI, response)
    }

    /// The implicit flow (OpenID Connect Core 3.2) as authctl asks for it: `id_token` by
    /// `form_post`, with a nonce (3.2.2.1 requires one); the ID token comes in the page.
    private func implicitAuthorize(_ parameters: [String: String], _ behaviour: Behaviour) -> HTTPResponse {
        guard let redirectURI = parameters["redirect_uri"], let state = parameters["state"], parameters["client_id"] == clientID,
            parameters["response_mode"] == "form_post", let nonce = parameters["nonce"], !nonce.isEmpty
        else {
            return HTTPResponse(status: 400, body: Data("bad implicit request: form_post and a nonce are required".utf8))
        }
        if let error = behaviour.authorizeError {
            return FakeHTTP.autoPost(to: redirectURI, [("error", error), ("state", behaviour.forgedState ?? state)])
        }
        let token = idToken(behaviour, nonce: nonce, subject: behaviour.subject)
        remember(token)
        return FakeHTTP.autoPost(to: redirectURI, [("id_token", token), ("state", behaviour.forgedState ?? state)])
    }

    private var deviceCodes: Set<String> = []
    private var devicePollsLeft: [String] = []

    private func deviceAuthorization(_ request: ReceivedRequest, _ behaviour: Behaviour) -> HTTPResponse {
        var form = Self.form(request.body)
        if let secret = behaviour.clientSecret {
            // RFC 8628 §3.1: a confidential client authenticates as at the token endpoint.
            let basic = "Basic " + Data("\(clientID):\(secret)".utf8).base64EncodedString()
            let authenticated = behaviour.secretInBody ? form["client_secret"] == secret : request.headers["authorization"] == basic
            guard authenticated else { return oauthError("invalid_client", "bad client authentication", status: 401) }
            if !behaviour.secretInBody { form["client_id"] = clientID }
        }
        guard form["client_id"] == clientID else { return oauthError("invalid_client", "unknown client", status: 401) }
        let deviceCode = "dc-" + UUID().uuidString
        remember(deviceCode)
        lock.withLock {
            deviceCodes.insert(deviceCode)
            devicePollsLeft = behaviour.devicePolls
        }
        var body: [String: JSONValue] = [
            "device_code": .string(deviceCode), "user_code": .string(behaviour.deviceUserCode),
            "verification_uri": .string(issuer + behaviour.deviceVerificationPath),
            "expires_in": .number(behaviour.deviceExpiresIn),
        ]
        if let interval = behaviour.deviceInterval { body["interval"] = interval }
        if behaviour.deviceVerificationComplete { body["verification_uri_complete"] = .string("\(issuer)/activate?user_code=WDJB-MJHT") }
        return json(.object(body))
    }

    private func token(_ request: ReceivedRequest, _ behaviour: Behaviour) -> HTTPResponse {
        var form = Self.form(request.body)
        if form["grant_type"] == "client_credentials" { return clientCredentials(request, form, behaviour) }
        remember(form["code_verifier"])
        if let secret = behaviour.clientSecret {
            if behaviour.secretInBody {
                guard form["client_secret"] == secret else { return oauthError("invalid_client", "bad client secret", status: 401) }
            } else {
                let expected = "Basic " + Data("\(clientID):\(secret)".utf8).base64EncodedString()
                guard request.headers["authorization"] == expected, form["client_secret"] == nil else {
                    return oauthError("invalid_client", "bad client authentication", status: 401)
                }
                form["client_id"] = clientID
            }
        }
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"], let grant = lock.withLock({ codes.removeValue(forKey: code) }) else {
                return oauthError("invalid_grant", "unknown or used code")
            }
            guard form["redirect_uri"] == grant.redirectURI, form["client_id"] == grant.clientID else {
                return oauthError("invalid_grant", "redirect_uri or client_id differs")
            }
            if let challenge = grant.challenge {
                guard FakeHTTP.pkceMatches(verifier: form["code_verifier"], challenge: challenge) else {
                    return oauthError("invalid_grant", "PKCE verification failed")
                }
            }
            return issueTokens(behaviour, nonce: grant.nonce, subject: behaviour.subject, includeIDToken: true)
        case "refresh_token":
            bump("refresh")
            if let error = behaviour.refreshError { return oauthError(error, "refresh refused", status: behaviour.oauthErrorStatus) }
            guard let token = form["refresh_token"], lock.withLock({ refreshTokens.contains(token) }) else {
                return oauthError("invalid_grant", "unknown refresh token")
            }
            var scope: String?
            if behaviour.narrowRotatedRefreshTokens {
                let granted = lock.withLock { narrowedScopes[token] } ?? Self.signInScope
                let grantedSet = Set(granted.split(separator: " "))
                if let asked = form["scope"], !Set(asked.split(separator: " ")).isSubset(of: grantedSet) {
                    return oauthError("invalid_scope", "the refresh token does not grant that scope")
                }
                scope = form["scope"] ?? granted
            }
            if behaviour.rotateRefreshTokens { lock.withLock { _ = refreshTokens.remove(token) } }
            return issueTokens(
                behaviour, nonce: nil, subject: behaviour.refreshedSubject ?? behaviour.subject,
                includeIDToken: behaviour.idTokenOnRefresh, keepRefreshToken: behaviour.rotateRefreshTokens ? nil : token, scope: scope)
        case "urn:ietf:params:oauth:grant-type:device_code":
            bump("device-poll")
            guard let code = form["device_code"], form["client_id"] == clientID, lock.withLock({ deviceCodes.contains(code) }) else {
                return oauthError("invalid_grant", "unknown device code")
            }
            let answer = lock.withLock { devicePollsLeft.isEmpty ? "approve" : devicePollsLeft.removeFirst() }
            guard answer == "approve" else { return oauthError(answer, nil, status: behaviour.oauthErrorStatus) }
            lock.withLock { _ = deviceCodes.remove(code) }
            return issueTokens(behaviour, nonce: nil, subject: behaviour.subject, includeIDToken: true)
        case TokenExchangeRequest.grantType:
            // RFC 8693: the subject token is kept (`exchangedSubjects`: whose token arrived).
            lock.withLock { exchangedSubjectTokens.append(form["subject_token"] ?? "") }
            return json(
                .object([
                    "access_token": .string("xt-\(UUID().uuidString)"), "token_type": "Bearer", "expires_in": .number(3600),
                    "issued_token_type": .string(TokenExchangeRequest.TokenType.accessToken),
                ]))
        default:
            return oauthError("unsupported_grant_type", nil)
        }
    }

    private var exchangedSubjectTokens: [String] = []
    /// The subject tokens of the token exchanges asked so far (RFC 8693), in order.
    public var exchangedSubjects: [String] { lock.withLock { exchangedSubjectTokens } }

    private var seenJTIs: Set<String> = []

    /// RFC 6749 §4.4: the client authenticates (secret, `private_key_jwt` or a federated
    /// assertion, `WorkloadVerifier`) and gets an access token, no refresh token.
    private func clientCredentials(_ request: ReceivedRequest, _ form: [String: String], _ behaviour: Behaviour) -> HTTPResponse {
        bump("client_credentials")
        remember(form["client_secret"], form["client_assertion"], request.headers["authorization"])
        let result = lock.withLock {
            WorkloadVerifier.authenticate(
                form: form, authorization: request.headers["authorization"], registrations: behaviour.workloads,
                tokenEndpoint: "\(issuer)/token", seenJTIs: &seenJTIs)
        }
        switch result {
        case .failure(let refusal):
            return oauthError(refusal.error, refusal.description, status: refusal.status)
        case .success:
            let (token, response) = WorkloadVerifier.tokenAnswer(scope: form["scope"], lifetime: behaviour.accessTokenLifetime)
            remember(token)
            return response
        }
    }

    /// The scope every sign-in grants.
    static let signInScope = "openid profile email"

    private func issueTokens(
        _ behaviour: Behaviour, nonce: String?, subject: String, includeIDToken: Bool, keepRefreshToken: String? = nil, scope: String? = nil
    ) -> HTTPResponse {
        let refreshToken = "rt-" + UUID().uuidString
        lock.withLock {
            _ = refreshTokens.insert(refreshToken)
            if let scope, scope != Self.signInScope { narrowedScopes[refreshToken] = scope }
        }
        var body: [String: JSONValue] = [
            "access_token": .string("at-" + UUID().uuidString + behaviour.accessTokenSuffix),
            "token_type": .string("Bearer"),
            "expires_in": behaviour.accessTokenLifetime,
            "scope": .string(scope ?? Self.signInScope),
        ]
        if keepRefreshToken == nil { body["refresh_token"] = .string(refreshToken) }
        if includeIDToken { body["id_token"] = .string(idToken(behaviour, nonce: nonce, subject: subject)) }
        remember(body["access_token"]?.stringValue, body["refresh_token"]?.stringValue, body["id_token"]?.stringValue)
        if let accessToken = body["access_token"]?.stringValue { lock.withLock { _ = accessTokens.insert(accessToken) } }
        return json(.object(body))
    }

    /// Signs an ID token as this provider would, shaped by `behaviour`.
    public func idToken(_ behaviour: Behaviour, nonce: String?, subject: String) -> String {
        let now = Date().timeIntervalSince1970
        var claims: [String: JSONValue] = [
            "iss": .string(behaviour.idTokenIssuer ?? issuer),
            "sub": .string(subject),
            "aud": behaviour.idTokenAudience ?? .string(clientID),
            "exp": behaviour.expAsString
                ? .string(String(Int(now + behaviour.idTokenExpiresIn))) : .number((now + behaviour.idTokenExpiresIn).rounded()),
            "iat": .number((now - behaviour.idTokenIssuedAgo).rounded()),
        ]
        if let nonce = behaviour.idTokenNonce ?? nonce { claims["nonce"] = .string(nonce) }
        if let azp = behaviour.idTokenAuthorizedParty { claims["azp"] = .string(azp) }
        if let email = behaviour.email {
            claims["email"] = .string(email)
            // `.null`: no `email_verified` claim at all, as some providers send.
            if behaviour.emailVerified != .null { claims["email_verified"] = behaviour.emailVerified }
        }
        if let name = behaviour.name { claims["name"] = .string(name) }
        return sign(claims: .object(claims), behaviour)
    }

    public func sign(claims: JSONValue, _ behaviour: Behaviour) -> String {
        signer.sign(claims: claims, signing: behaviour.signing, unpublishedKey: behaviour.signWithUnpublishedKey)
    }

    private func json(_ value: JSONValue) -> HTTPResponse { FakeHTTP.json(value) }

    private func oauthError(_ error: String, _ description: String?, status: Int = 400) -> HTTPResponse {
        var body: [String: JSONValue] = ["error": .string(error)]
        if let description { body["error_description"] = .string(description) }
        return FakeHTTP.json(.object(body), status: status)
    }

    static func form(_ body: Data) -> [String: String] { FakeHTTP.form(body) }
}
