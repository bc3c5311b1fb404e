import AuthCore
import Foundation

/// Firebase Authentication's REST API — the Identity Toolkit and securetoken services — in the
/// test process on 127.0.0.1, with the URL layout of the Auth emulator
/// (`http://HOST:PORT/identitytoolkit.googleapis.com/v1/accounts:…`,
/// `http://HOST:PORT/securetoken.googleapis.com/v1/token`), written from the REST reference
/// and from what the Firebase SDKs read of its answers:
///
/// - every call needs `?key=` with the project's API key (`API_KEY_INVALID` in the details of a
///   400 otherwise; no key at all is a 403 `PERMISSION_DENIED`, as the real service answers);
/// - errors are `{"error":{"code":400,"message":"CODE : detail","errors":[…]}}`;
/// - `accounts:createAuthUri` builds the provider's authorization URL (its own `state` and
///   `nonce`, `redirect_uri` = `continueUri`) for a provider enabled in the "console"
///   (`enable(_:provider:clientSecret:)`), and `accounts:signInWithIdp` exchanges the code at
///   that provider's token endpoint with the console's client id and secret — a real OpenID
///   provider (`FakeIdentityProvider`) on another port, over HTTP;
/// - the account rules: an identity is linked to one user; one account per verified email
///   (`needConfirmation`, or `EMAIL_EXISTS` when linking, each with a `pendingToken`);
///   `FEDERATED_USER_ID_ALREADY_LINKED`; `autoCreate: false` → `USER_NOT_FOUND`; deleting an
///   account needs a sign-in within five minutes (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`);
///   disabled users (`USER_DISABLED`) and revoked sessions (`TOKEN_EXPIRED`);
/// - Firebase ID tokens signed RS256 with a key made at test time (`iss`
///   `https://securetoken.google.com/PROJECT`, `aud` PROJECT, `sub` = `user_id` = localId,
///   `auth_time`, `firebase.identities`, `firebase.sign_in_provider`), an hour long unless
///   `Behaviour.idTokenLifetime` says otherwise; `expiresIn` as a string, as the service sends it.
public final class FakeFirebaseAuth: @unchecked Sendable {
    public struct Behaviour: Sendable {
        /// Seconds an ID token lives (3600 at the real service).
        public var idTokenLifetime: TimeInterval = 3600
        /// Seconds before now that ID tokens say they were issued (`iat`; `exp` follows): a
        /// session that began a while ago, to a process whose clock the test cannot move.
        public var idTokenIssuedAgo: TimeInterval = 0
        /// The window of a "recent" sign-in for `accounts:delete` (five minutes at the service).
        public var recentLoginWindow: TimeInterval = 300
        /// Answers every call to this path with this response instead (a broken service).
        public var override: (path: String, response: HTTPResponse)?
        /// More answers of a broken or lying service, by the last part of the path
        /// (`accounts:lookup`).
        public var overrides: [String: HTTPResponse] = [:]
        /// The console's authorized domains: `localhost` in every project; a forwarding
        /// page's domain only when the developer added it.
        public var authorizedDomains: Set<String> = ["localhost"]
        /// A lying service: ID tokens name this tenant (`firebase.tenant`) whatever the user's.
        public var idTokenTenant: String?
        /// A lying service: the next user it creates gets this `localId`.
        public var nextLocalID: String?

        public init() {}
    }

    /// A user of the project.
    public struct Account: Sendable, Equatable {
        public var localID: String
        public var email: String?
        public var emailVerified: Bool
        public var displayName: String?
        public var disabled = false
        public var tenantID: String?
        public var identities: [Identity]
        public var createdAt: Date
        public var lastLoginAt: Date
    }

    /// One `providerUserInfo[]` entry.
    public struct Identity: Sendable, Equatable {
        public var providerID: String
        public var rawID: String
        public var email: String?
        public var emailVerified: Bool
        public var displayName: String?
    }

    /// A provider enabled in the console: where its code is exchanged, with which client.
    struct ConsoleProvider {
        var provider: FakeIdentityProvider
        var clientID: String
        var clientSecret: String?
        /// The provider answers by `response_mode=form_post` (Apple with name or email).
        var formPost = false
    }

    /// An authorization started by `createAuthUri`, until its `signInWithIdp`.
    struct AuthSession {
        var providerID: String
        var continueURI: String
        var state: String
        var nonce: String
        var tenantID: String?
    }

    /// What a provider vouched for: an identity and its tokens (the pending token stands for it).
    struct IdPCredential {
        var providerID: String
        var rawID: String
        var email: String?
        var emailVerified: Bool
        var displayName: String?
        var accessToken: String?
        var accessTokenExpiresIn: Double?
        var idToken: String?
        var refreshToken: String?
        var createdAt: Date
    }

    /// A Firebase session: what a refresh token stands for.
    struct FirebaseSession {
        var localID: String
        var authTime: Date
        var signInProvider: String
        /// The user's `revocations` when the session began: a later revocation ends it.
        var generation: Int
    }

    public let projectID: String
    public let apiKey: String
    public private(set) var server: LoopbackHTTPServer!
    let signer: TestTokenSigner
    let lock = NSLock()
    var behaviourValue = Behaviour()
    var console: [String: ConsoleProvider] = [:]
    var sessions: [String: AuthSession] = [:]
    var pending: [String: IdPCredential] = [:]
    var refreshTokens: [String: FirebaseSession] = [:]
    /// Every ID token issued, with the session it belongs to.
    var idTokens: [String: FirebaseSession] = [:]
    var accounts: [String: Account] = [:]
    /// Per user: how many times its sessions were revoked.
    var revocations: [String: Int] = [:]
    var counters: [String: Int] = [:]
    var requests: [(path: String, body: [String: JSONValue])] = []
    var revokedProviderTokens: [(providerID: String, token: String)] = []
    var secrets: [String] = []

    /// - Parameters:
    ///   - projectID: the Firebase project (`aud` of its ID tokens).
    ///   - apiKey: the key every call must carry; generated when not given.
    public init(projectID: String = "authctl-test-project", apiKey: String? = nil) throws {
        self.projectID = projectID
        self.apiKey = apiKey ?? "AIza" + Base64URL.encode((0..<24).map { _ in UInt8.random(in: 0...255) })
        signer = try TestTokenSigner()
        signer.keyID = "firebase-" + UUID().uuidString.prefix(8).lowercased()
        server = try LoopbackHTTPServer { [weak self] request in
            // A request that arrives while the fake goes (a test ended with a connection open) gets a 503, not a crash.
            self?.handle(request) ?? HTTPResponse(status: 503)
        }
    }

    deinit { server.stop() }

    /// `HOST:PORT`, as `--emulator` and `FIREBASE_AUTH_EMULATOR_HOST` take it.
    public var emulatorHost: String { "127.0.0.1:\(server.port)" }
    public var baseURL: String { server.baseURL }
    /// The public keys of the ID tokens, as a JWK Set (Google publishes them for the Admin SDK).
    public var publicKeys: JSONValue { signer.jwks }
    public var keySet: JSONWebKeySet { signer.keySet }

    public var behaviour: Behaviour {
        get { lock.withLock { behaviourValue } }
        set { lock.withLock { behaviourValue = newValue } }
    }

    public func update(_ change: (inout Behaviour) -> Void) { lock.withLock { change(&behaviourValue) } }

    // MARK: The console and the Admin SDK's powers, for tests

    /// Enables `providerID` in the project with the client id (the provider's) and secret set
    /// in the console; the provider's confidential client gets the same secret.
    /// With `formPost`, the authorization URL asks `response_mode=form_post` (as for Apple).
    public func enable(_ providerID: String, provider: FakeIdentityProvider, clientSecret: String? = nil, formPost: Bool = false) {
        if let clientSecret { provider.update { $0.clientSecret = clientSecret } }
        lock.withLock {
            console[providerID] = ConsoleProvider(
                provider: provider, clientID: provider.clientID, clientSecret: clientSecret, formPost: formPost)
        }
    }

    /// The users of the project.
    public var users: [Account] { lock.withLock { accounts.values.sorted { $0.createdAt < $1.createdAt } } }

    public func user(_ localID: String) -> Account? { lock.withLock { accounts[localID] } }

    /// Disables (or enables) a user, as the console's "Disable account".
    public func setDisabled(_ localID: String, _ disabled: Bool = true) { lock.withLock { accounts[localID]?.disabled = disabled } }

    /// The Admin SDK's `revokeRefreshTokens`: every session of the user ends.
    public func revokeSessions(of localID: String) { lock.withLock { revocations[localID, default: 0] += 1 } }

    /// Makes every sign-in so far `seconds` older (`auth_time` of the sessions, and of the ID
    /// tokens refreshed from them), as if the user had signed in that much earlier.
    public func ageSignIns(by seconds: TimeInterval) {
        lock.withLock {
            for key in refreshTokens.keys { refreshTokens[key]?.authTime.addTimeInterval(-seconds) }
            for key in idTokens.keys { idTokens[key]?.authTime.addTimeInterval(-seconds) }
        }
    }

    /// How often an endpoint was called: `createAuthUri`, `signInWithIdp`, `lookup`, `update`,
    /// `delete`, `revokeToken`, `token`.
    public func count(_ name: String) -> Int { lock.withLock { counters[name] ?? 0 } }

    /// The JSON (or form) body of every request, in order, with its path.
    public var receivedRequests: [(path: String, body: [String: JSONValue])] { lock.withLock { requests } }

    /// The provider tokens revoked through `v2/accounts:revokeToken`.
    public var revokedTokens: [(providerID: String, token: String)] { lock.withLock { revokedProviderTokens } }

    /// Every token, session id, state, nonce and pending token this service issued or saw.
    public var issuedSecrets: [String] { lock.withLock { secrets } }

    func remember(_ values: String?...) { lock.withLock { secrets += values.compactMap { $0 } } }

    // MARK: Routing

    static let identityToolkit = "/identitytoolkit.googleapis.com"
    static let secureToken = "/securetoken.googleapis.com/v1/token"

    func handle(_ request: ReceivedRequest) -> HTTPResponse {
        if let override = behaviour.override, override.path == request.path { return override.response }
        if let (_, response) = behaviour.overrides.first(where: { request.path.hasSuffix("/" + $0.key) }) { return response }
        let query = FakeHTTP.form(Data((request.query ?? "").utf8))
        guard let key = query["key"] else {
            return Self.googleError(
                403,
                "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
                status: "PERMISSION_DENIED")
        }
        guard key == apiKey else {
            return Self.googleError(
                400, "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT", reason: "API_KEY_INVALID")
        }
        guard request.method == "POST" else { return HTTPResponse(status: 404, body: Data("Not Found".utf8)) }
        if request.path == Self.secureToken {
            let body = FakeHTTP.form(request.body).mapValues(JSONValue.string)
            record("token", request.path, body)
            return secureTokenGrant(body)
        }
        guard let body = JSONValue.object(from: request.body) else {
            return Self.error("INVALID_JSON_PAYLOAD", "Invalid JSON payload received.")
        }
        let route = request.path.hasPrefix(Self.identityToolkit) ? String(request.path.dropFirst(Self.identityToolkit.count)) : ""
        let name = route.split(separator: ":").last.map(String.init) ?? ""
        record(name, request.path, body)
        if let tenant = body["tenantId"]?.stringValue, tenant.isEmpty { return Self.error("INVALID_TENANT_ID") }
        switch route {
        case "/v1/accounts:createAuthUri": return createAuthURI(body)
        case "/v1/accounts:signInWithIdp": return signInWithIdP(body)
        case "/v1/accounts:lookup": return lookup(body)
        case "/v1/accounts:update": return updateAccount(body)
        case "/v1/accounts:delete": return deleteAccount(body)
        case "/v2/accounts:revokeToken": return revokeToken(body)
        default: return HTTPResponse(status: 404, body: Data("Not Found".utf8))
        }
    }

    private func record(_ name: String, _ path: String, _ body: [String: JSONValue]) {
        lock.withLock {
            counters[name, default: 0] += 1
            requests.append((path, body))
        }
    }

    // MARK: Errors as the service writes them

    /// `{"error":{"code":400,"message":"CODE : detail","errors":[{"message":…,"domain":"global","reason":"invalid"}]}}`.
    static func error(_ code: String, _ detail: String? = nil, status: Int = 400) -> HTTPResponse {
        let message = detail.map { "\(code) : \($0)" } ?? code
        return FakeHTTP.json(
            .object([
                "error": .object([
                    "code": .number(Double(status)), "message": .string(message),
                    "errors": .array([.object(["message": .string(message), "domain": "global", "reason": "invalid"])]),
                ])
            ]), status: status)
    }

    /// A Google API error (a bad API key): `status` and an `ErrorInfo` with the reason.
    static func googleError(_ code: Int, _ message: String, status: String, reason: String? = nil) -> HTTPResponse {
        var error: [String: JSONValue] = ["code": .number(Double(code)), "message": .string(message), "status": .string(status)]
        if let reason {
            error["details"] = .array([
                .object([
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": .string(reason), "domain": "googleapis.com",
                ])
            ])
        }
        return FakeHTTP.json(.object(["error": .object(error)]), status: code)
    }

    // MARK: Firebase sessions

    /// The session an ID token stands for, or the service's error for it.
    func session(ofIDToken token: String?) -> Result<FirebaseSession, HTTPFailure> {
        guard let token, !token.isEmpty else { return .failure(HTTPFailure("MISSING_ID_TOKEN")) }
        return lock.withLock {
            guard let session = idTokens[token] else { return .failure(HTTPFailure("INVALID_ID_TOKEN")) }
            guard let account = accounts[session.localID] else { return .failure(HTTPFailure("USER_NOT_FOUND")) }
            if account.disabled { return .failure(HTTPFailure("USER_DISABLED")) }
            if session.generation != revocations[session.localID, default: 0] { return .failure(HTTPFailure("TOKEN_EXPIRED")) }
            if let exp = Self.claims(of: token)?["exp"]?.numberValue, Date().timeIntervalSince1970 >= exp {
                return .failure(HTTPFailure("TOKEN_EXPIRED"))
            }
            return .success(session)
        }
    }

    /// A new Firebase session for the user: an ID token and a refresh token.
    func startSession(for localID: String, provider: String, authTime: Date) -> (idToken: String, refreshToken: String) {
        let generation = lock.withLock { revocations[localID, default: 0] }
        let session = FirebaseSession(localID: localID, authTime: authTime, signInProvider: provider, generation: generation)
        let refreshToken = "AMf-" + Base64URL.encode((0..<48).map { _ in UInt8.random(in: 0...255) })
        let idToken = issueIDToken(session)
        lock.withLock { refreshTokens[refreshToken] = session }
        remember(refreshToken)
        return (idToken, refreshToken)
    }

    /// A Firebase ID token for `session`, signed with the project's key.
    func issueIDToken(_ session: FirebaseSession) -> String {
        let now = (Date().timeIntervalSince1970 - behaviour.idTokenIssuedAgo).rounded(.down)
        let account = lock.withLock { accounts[session.localID] }
        var identities: [String: JSONValue] = [:]
        for identity in account?.identities ?? [] { identities[identity.providerID] = .array([.string(identity.rawID)]) }
        if let email = account?.email { identities["email"] = .array([.string(email)]) }
        var firebase: [String: JSONValue] = ["identities": .object(identities), "sign_in_provider": .string(session.signInProvider)]
        if let tenant = behaviour.idTokenTenant ?? account?.tenantID { firebase["tenant"] = .string(tenant) }
        var claims: [String: JSONValue] = [
            "iss": .string("https://securetoken.google.com/\(projectID)"), "aud": .string(projectID),
            "auth_time": .number(session.authTime.timeIntervalSince1970.rounded(.down)), "user_id": .string(session.localID),
            "sub": .string(session.localID), "iat": .number(now), "exp": .number(now + behaviour.idTokenLifetime),
            "firebase": .object(firebase),
        ]
        if let email = account?.email {
            claims["email"] = .string(email); claims["email_verified"] = .bool(account?.emailVerified ?? false)
        }
        if let name = account?.displayName { claims["name"] = .string(name) }
        let token = signer.sign(claims: .object(claims))
        lock.withLock { idTokens[token] = session }
        remember(token)
        return token
    }

    /// `securetoken.googleapis.com/v1/token`: the refresh-token grant.
    func secureTokenGrant(_ form: [String: JSONValue]) -> HTTPResponse {
        guard form["grant_type"]?.stringValue == "refresh_token" else { return Self.error("INVALID_GRANT_TYPE") }
        guard let token = form["refresh_token"]?.stringValue, !token.isEmpty else { return Self.error("MISSING_REFRESH_TOKEN") }
        let found: Result<FirebaseSession, HTTPFailure> = lock.withLock {
            guard let session = refreshTokens[token] else { return .failure(HTTPFailure("INVALID_REFRESH_TOKEN")) }
            guard let account = accounts[session.localID] else { return .failure(HTTPFailure("USER_NOT_FOUND")) }
            if account.disabled { return .failure(HTTPFailure("USER_DISABLED")) }
            if session.generation != revocations[session.localID, default: 0] { return .failure(HTTPFailure("TOKEN_EXPIRED")) }
            return .success(session)
        }
        switch found {
        case .failure(let failure): return failure.response
        case .success(let session):
            let idToken = issueIDToken(session)
            return FakeHTTP.json(
                .object([
                    "access_token": .string(idToken), "id_token": .string(idToken),
                    "expires_in": .string(String(Int(behaviour.idTokenLifetime))),
                    "token_type": "Bearer", "refresh_token": .string(token), "user_id": .string(session.localID),
                    "project_id": .string(projectID),
                ]))
        }
    }

    /// The claims of a JWT, unverified (the fake reads its own tokens and the provider's).
    static func claims(of token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(parts[1]) else { return nil }
        return JSONValue.object(from: data)
    }
}

/// A refusal of the service, as its error code (and detail).
struct HTTPFailure: Error {
    var code: String
    var detail: String?

    init(_ code: String, _ detail: String? = nil) {
        self.code = code
        self.detail = detail
    }

    var response: HTTPResponse { FakeFirebaseAuth.error(code, detail) }
}
