/// The Identity Toolkit and securetoken calls of docs/firebase.md through the `HTTPTransport` port.
/// Nothing from Firebase is trusted more than a provider's answer: bounded (the transport's
/// 1 MiB), a JSON object of the expected types, finite numbers, and the Firebase ID token's
/// `iss`, `aud`, `sub` and `exp` checked before anything is stored.
public struct FirebaseAuthClient: Sendable {
    /// An answer: its fields, or the service's refusal with the fields that came with it
    /// (a conflict's pending token and provider credential).
    public enum Answer: Sendable {
        case accepted([String: JSONValue])
        case refused(FirebaseServiceError, [String: JSONValue])
    }

    /// The Firebase session a sign-in or a refresh yields.
    public struct Session: Sendable, Equatable {
        public var localID: String
        public var idToken: String
        public var refreshToken: String
        public var expiresAt: Date
    }

    public let config: FirebaseConfig
    let endpoints: FirebaseEndpoints
    let transport: any HTTPTransport
    let clock: any Clock

    /// - Parameter emulator: `FIREBASE_AUTH_EMULATOR_HOST`, which overrides the configuration's emulator.
    public init(config: FirebaseConfig, emulator: FirebaseEmulatorHost?, transport: any HTTPTransport, clock: any Clock) throws {
        self.config = config
        endpoints = try FirebaseEndpoints(config: config, emulator: emulator)
        self.transport = transport
        self.clock = clock
    }

    public var project: String { config.projectId }

    /// Sends and reads an answer: a JSON object (HTTP 200), or the service's error. Anything
    /// else — an HTML page, a 5xx without the service's error — is `network-request-failed`.
    func call(_ request: HTTPRequest) async throws -> Answer {
        var request = request
        // The project's own services (or the emulator the user's session came from, which
        // `FirebaseSignIn.checkServed` holds to): its tokens go nowhere else.
        request.egress = .bound(
            SecretBinding(
                issuer: "https://securetoken.google.com/\(config.projectId)",
                origins: [endpoints.token, endpoints.accounts("lookup")].compactMap(Origin.init)), provider: "firebase")
        let response = try await transport.send(request)
        if let failure = FirebaseServiceError.parse(response) {
            return .refused(failure, JSONValue.object(from: response.body) ?? [:])
        }
        guard response.status == 200, let json = JSONValue.object(from: response.body) else {
            throw AuthError.network(
                "\(request.place) answered HTTP \(response.status) without a Firebase answer. Firebase may be unreachable or down (with an emulator: is it running?); try again later"
            )
        }
        return .accepted(json)
    }

    /// A call whose refusal is its mapped error.
    func accepted(_ request: HTTPRequest, _ operation: FirebaseErrorMapping.Operation) async throws -> [String: JSONValue] {
        switch try await call(request) {
        case .accepted(let json): return json
        case .refused(let failure, _): throw FirebaseErrorMapping.error(failure, operation: operation, project: project)
        }
    }

    // MARK: The calls

    /// `accounts:createAuthUri`: the authorization URL (its `state` read out, which the
    /// listener must see again) and the session id for `signInWithIdp`.
    public func createAuthURI(_ request: FirebaseRequests.CreateAuthURI) async throws -> BrokeredAuthorization {
        let json = try await accepted(request.httpRequest(endpoints), .signIn(providerID: request.providerID))
        guard let text = json["authUri"]?.stringValue, let url = URL(string: text), let sessionID = json["sessionId"]?.stringValue,
            !sessionID.isEmpty, sessionID.count <= 4096
        else {
            throw AuthError.network(
                "Firebase's createAuthUri answer has no authUri or sessionId. Check the project's Authentication settings")
        }
        try EndpointPolicy.check(url, what: "the authorization URL Firebase gave")
        return try BrokeredAuthorization(authorizationURL: url, sessionID: sessionID)
    }

    /// `accounts:signInWithIdp`, its refusal returned (the account store saves a conflict's
    /// credential before it reports it).
    public func signInWithIdP(_ request: FirebaseRequests.SignInWithIdP) async throws -> Answer {
        let answer = try await call(request.httpRequest(endpoints))
        // `needConfirmation` is an HTTP 200 without a session (one account per email).
        if case .accepted(let json) = answer, json["needConfirmation"]?.boolValue == true {
            return .refused(FirebaseServiceError(code: "NEED_CONFIRMATION"), json)
        }
        return answer
    }

    /// `accounts:lookup`: the providers linked to the user the ID token names.
    public func linkedProviders(idToken: String) async throws -> [FirebaseProviderInfo] {
        let json = try await accepted(FirebaseRequests.lookup(endpoints, idToken: idToken), .lookup)
        guard let user = json["users"]?.arrayValue?.first?.objectValue else {
            throw AuthError.network("Firebase's lookup answer names no user. Try again")
        }
        return (user["providerUserInfo"]?.arrayValue ?? []).compactMap { $0.objectValue.flatMap(FirebaseProviderInfo.init) }
    }

    /// `accounts:update` with `deleteProvider`.
    public func unlink(_ providerID: String, idToken: String) async throws {
        _ = try await accepted(
            FirebaseRequests.unlink(endpoints, providerIDs: [providerID], idToken: idToken), .unlink(providerID: providerID))
    }

    /// `accounts:delete`.
    public func deleteAccount(idToken: String) async throws {
        _ = try await accepted(FirebaseRequests.delete(endpoints, idToken: idToken), .delete)
    }

    /// `v2/accounts:revokeToken` (Apple's access token, as the SDKs' `revokeAccessToken`,
    /// before the account goes).
    public func revokeToken(providerID: String, token: String, idToken: String) async throws {
        _ = try await accepted(
            FirebaseRequests.revokeToken(
                endpoints, providerID: providerID, token: token, tokenType: "ACCESS_TOKEN", idToken: idToken, tenantID: config.tenantId),
            .delete)
    }

    /// securetoken's refresh grant: a new ID token (and refresh token), checked.
    public func refresh(_ refreshToken: String, localID: String) async throws -> Session {
        let json = try await accepted(FirebaseRequests.refresh(endpoints, refreshToken: refreshToken), .refresh)
        guard let idToken = json["id_token"]?.stringValue else {
            throw AuthError.network("securetoken's answer has no id_token. Try again")
        }
        return try session(
            localID: localID, idToken: idToken, refreshToken: json["refresh_token"]?.stringValue ?? refreshToken,
            expiresIn: json["expires_in"])
    }

    /// A session from an answer: the ID token checked (docs/firebase.md) before it is kept.
    func session(localID: String, idToken: String, refreshToken: String, expiresIn: JSONValue?) throws -> Session {
        let now = clock.now()
        // Both are printed or sent in headers later: of the shape Firebase issues, or refused.
        guard FirebaseAnswer.isToken(idToken), FirebaseAnswer.isToken(refreshToken), refreshToken.count <= 8192 else {
            throw AuthError.invalidCredential(
                "Firebase's ID token or refresh token is not one; nothing was stored. Sign in again: \(command: .login, "PROVIDER")")
        }
        let expiresAt = try checkIDToken(idToken, localID: localID, now: now)
        let lifetime = Self.seconds(expiresIn).map { now.addingTimeInterval($0) }
        return Session(localID: localID, idToken: idToken, refreshToken: refreshToken, expiresAt: min(expiresAt, lifetime ?? expiresAt))
    }

    /// docs/firebase.md: `iss` `https://securetoken.google.com/PROJECT`, `aud` PROJECT, `sub` the
    /// user's `localId`, `firebase.tenant` the backend's tenant (absent without one), `exp` a
    /// number in the future (at most a day ahead). The signature
    /// is Google's over TLS from Google itself (the emulator signs none), so it is not
    /// checked here; the Admin SDK's `verifyIdToken` checks it where the token is used.
    func checkIDToken(_ token: String, localID: String, now: Date) throws -> Date {
        func refused(_ rule: String) -> AuthError {
            AuthError.invalidCredential(
                "the Firebase ID token was refused: \(rule); nothing was stored. Check the project id (\(command: .backendUse, "firebase", .input(.project, "ID"), .input(.apiKey, "KEY"))) and sign in again"
            )
        }
        guard token.count <= 16384, let claims = IDTokenClaims.unverifiedParts(of: token).map({ IDTokenClaims(raw: $0.payload) }) else {
            throw refused("it is not a JWT")
        }
        guard claims.issuer == "https://securetoken.google.com/\(project)" else {
            throw refused("its issuer is not https://securetoken.google.com/\(project)")
        }
        guard claims.audiences == [project] else { throw refused("its audience is not the project \(project)") }
        guard !localID.isEmpty, claims.subject == localID else { throw refused("it names another user than Firebase's answer") }
        // Identity Platform: a token of another tenant (or of none) is another user database's.
        let tenant = claims.raw["firebase"]?.objectValue?["tenant"]?.stringValue
        guard tenant == config.tenantId else {
            throw refused("its tenant (\(Sanitize.text(tenant ?? "none", limit: 64))) is not the backend's (\(config.tenantId ?? "none"))")
        }
        guard let exp = claims.raw["exp"]?.numberValue, exp.isFinite, exp > now.timeIntervalSince1970,
            exp < now.timeIntervalSince1970 + 86_400
        else { throw refused("its expiry (exp) is missing, past, or more than a day ahead") }
        return Date(timeIntervalSince1970: exp)
    }

    /// A lifetime sent as a number or a string of digits (Firebase sends `"3600"`), finite,
    /// positive, at most a day; nil otherwise.
    static func seconds(_ value: JSONValue?) -> TimeInterval? {
        let number: Double? =
            switch value {
            case .number(let n)?: n
            case .string(let s)?: s.count <= 12 ? Double(s) : nil
            default: nil
            }
        guard let number, number.isFinite, number > 0, number <= 86_400 else { return nil }
        return number
    }
}

/// One `providerUserInfo[]` entry of `accounts:lookup`.
public struct FirebaseProviderInfo: Sendable, Equatable {
    public var providerID: String
    public var federatedID: String
    public var email: String?
    public var displayName: String?

    init?(_ json: [String: JSONValue]) {
        guard let providerID = json["providerId"]?.stringValue, FirebaseAnswer.isProviderID(providerID),
            let federatedID = json["rawId"]?.stringValue ?? json["federatedId"]?.stringValue, federatedID.count <= 1024
        else { return nil }
        self.providerID = providerID
        self.federatedID = Sanitize.text(federatedID, limit: 1024)
        email = json["email"]?.stringValue.map { Sanitize.text($0, limit: 320) }
        displayName = json["displayName"]?.stringValue.map { Sanitize.text($0, limit: 256) }
    }
}
