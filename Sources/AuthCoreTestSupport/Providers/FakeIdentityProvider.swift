import AuthCore
import Crypto
import Foundation
import _CryptoExtras

/// An OpenID Connect provider in the test process, on 127.0.0.1, that behaves like a real
/// one (discovery, JWKS, authorize with a 302 back to the redirect URI, token endpoint with
/// PKCE checks and refresh-token rotation, revocation) — and, on request, like a hostile or
/// broken one (see `Behaviour`).
public final class FakeIdentityProvider: @unchecked Sendable {
    public let clientID = "authctl-test-client"
    public private(set) var server: LoopbackHTTPServer!
    // The fake's state, read and changed under `lock` only, here and by its endpoints
    // (FakeIdentityProvider+Authorization.swift, FakeIdentityProvider+Token.swift).
    let lock = NSLock()
    var behaviourValue = Behaviour()
    public let signer: TestTokenSigner
    var codes: [String: (redirectURI: String, challenge: String?, nonce: String?, clientID: String)] = [:]
    var refreshTokens: Set<String> = []
    /// The access tokens still active (issued, their session not ended).
    var accessTokens: Set<String> = []
    /// The scope a refresh token was narrowed to (`narrowRotatedRefreshTokens`); absent: the sign-in's.
    var narrowedScopes: [String: String] = [:]
    var counters: [String: Int] = [:]
    var revokedTokens: [String] = []
    var revokingClients: [String] = []
    var authorizationParameters: [String: String] = [:]
    var secrets: [String] = []
    var agents: [(path: String, userAgent: String)] = []
    var deviceCodes: Set<String> = []
    var devicePollsLeft: [String] = []
    var backchannelForms: [[String: String]] = []
    var exchangedSubjectTokens: [String] = []
    var seenJTIs: Set<String> = []

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

    func remember(_ values: String?...) { lock.withLock { secrets += values.compactMap { $0 } } }

    /// Starts signing with a new `kid` (a key rotation): tokens carry it, and the JWKS serves it.
    public func rotateKeys(to kid: String) { signer.keyID = kid }

    func bump(_ name: String) { lock.withLock { counters[name, default: 0] += 1 } }

    /// Ends every session at the provider (an administrator's revocation, a password change):
    /// no refresh token or access token it issued is accepted any more.
    public func endSessions() {
        lock.withLock {
            refreshTokens.removeAll()
            accessTokens.removeAll()
        }
    }

    // MARK: Routing

    func handle(_ request: ReceivedRequest) -> HTTPResponse {
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

    func route(_ request: ReceivedRequest) -> HTTPResponse {
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
        case ("POST", "/bc-authorize") where behaviour.backchannelSupported:
            bump("backchannel")
            return backchannelAuthentication(request, behaviour)
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

    func discovery(_ behaviour: Behaviour) -> JSONValue {
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
        if behaviour.backchannelSupported {
            document["backchannel_authentication_endpoint"] = .string("\(issuer)/bc-authorize")
            document["backchannel_token_delivery_modes_supported"] = .array(behaviour.backchannelModes.map { .string($0) })
        }
        if behaviour.sendIssuerOnRedirect { document["authorization_response_iss_parameter_supported"] = .bool(true) }
        return .object(document)
    }

    func jwks(_ behaviour: Behaviour) -> JSONValue {
        guard !behaviour.jwksExtraMembers.isEmpty, case .object(var members) = signer.jwks else { return signer.jwks }
        members.merge(behaviour.jwksExtraMembers) { old, _ in old }
        return .object(members)
    }

    func json(_ value: JSONValue) -> HTTPResponse { FakeHTTP.json(value) }

    func oauthError(_ error: String, _ description: String?, status: Int = 400) -> HTTPResponse {
        var body: [String: JSONValue] = ["error": .string(error)]
        if let description { body["error_description"] = .string(description) }
        return FakeHTTP.json(.object(body), status: status)
    }

    static func form(_ body: Data) -> [String: String] { FakeHTTP.form(body) }
}
