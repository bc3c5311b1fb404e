/// `authctl aws-credentials --role-arn ARN`: AWS temporary credentials for a role, from STS
/// `AssumeRoleWithWebIdentity` with the current identity's ID token — or, with an audience,
/// a token exchanged for it first (`TokenExchange`) — for the AWS CLI's `credential_process`
/// (docs/cloud.md).
///
/// The STS request goes through the HTTP transport (no token endpoint: STS is not the
/// provider). The credentials are cached with the identity's tokens until five minutes
/// before they expire — the AWS SDKs refresh a process credential at about that point —,
/// sealed when the keystore is sealed, dropped by `signout`, never exported.
public struct AWSRoleCredentials: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID?
        public var roleARN: String
        /// `RoleSessionName`; nil: `authctl-` and the user's uid.
        public var sessionName: String?
        public var durationSeconds: Int?
        public var endpoint: URL
        /// With an audience, the web identity token is one exchanged for it (RFC 8693);
        /// without, the identity's ID token.
        public var exchange: TokenExchange.Input?
        public var forceRefresh: Bool
        /// The user whose identity assumes the role; nil: the current user.
        public var uid: String?
        /// Why `uid` was chosen: errors name the user and it.
        public var chosenBy: UserChoiceReason?

        public init(
            providerID: ProviderID? = nil, roleARN: String, sessionName: String? = nil, durationSeconds: Int? = nil, endpoint: URL,
            exchange: TokenExchange.Input? = nil, forceRefresh: Bool = false, uid: String? = nil
        ) {
            self.providerID = providerID
            self.roleARN = roleARN
            self.sessionName = sessionName
            self.durationSeconds = durationSeconds
            self.endpoint = endpoint
            self.exchange = exchange
            self.forceRefresh = forceRefresh
            self.uid = uid
        }

        func cacheKey(sessionName: String) -> String {
            DerivedCredential.key(
                "aws-sts",
                [
                    ("role_arn", roleARN), ("session_name", sessionName), ("duration", durationSeconds.map(String.init)),
                    ("endpoint", endpoint.absoluteString), ("exchange", exchange.map { $0.cacheKey ?? "actor" } ?? "id_token"),
                ])
        }
    }

    public struct Output: Sendable, Equatable {
        public var credentials: AWSTemporaryCredentials
        /// False: from the cache.
        public var assumed: Bool
    }

    /// How long before expiry cached credentials are replaced.
    public static let refreshMargin: TimeInterval = 5 * 60

    let keystore: any Keystore
    let refresh: TokenRefresh
    let exchange: TokenExchange
    let transport: any HTTPTransport
    let clock: any Clock

    /// - Parameter transport: STS is called through it.
    public init(keystore: any Keystore, refresh: TokenRefresh, exchange: TokenExchange, transport: any HTTPTransport, clock: any Clock) {
        self.keystore = keystore
        self.refresh = refresh
        self.exchange = exchange
        self.transport = transport
        self.clock = clock
    }

    public func run(_ input: Input) async throws -> Output {
        guard STSEndpoint.isRoleARN(input.roleARN) else {
            throw AuthError.invalidArgument(
                "'\(Sanitize.text(input.roleARN, limit: 80))' is not a role ARN. Give \(input: .roleARN) as arn:aws:iam::ACCOUNT:role/NAME")
        }
        if let duration = input.durationSeconds, !STSEndpoint.durationRange.contains(duration) {
            throw AuthError.invalidArgument("\(input: .duration) \(duration) is out of range: give 900…43200 seconds")
        }
        let subjectInput = TokenRefresh.Input(
            providerID: input.providerID, idToken: input.exchange == nil, uid: input.uid, chosenBy: input.chosenBy)
        let user = try TokenRefresh.resolveUser(subjectInput, keystore: keystore)
        let (providerID, tokenSet) = try TokenRefresh.select(subjectInput, of: user)
        let sessionName = input.sessionName ?? Self.defaultSessionName(uid: user.uid)
        guard STSEndpoint.isSessionName(sessionName) else {
            throw AuthError.invalidArgument(
                "\(input: .sessionName) takes 2–64 letters, digits and _+=,.@- (STS's RoleSessionName)")
        }
        let key = input.cacheKey(sessionName: sessionName)
        if !input.forceRefresh, let entry = tokenSet.derivedCredentials?[key],
            entry.isValid(at: clock.now(), minimumTTL: Self.refreshMargin), case .aws(let cached) = entry.value
        {
            return Output(credentials: cached, assumed: false)
        }
        let webIdentityToken: String
        if var exchangeInput = input.exchange {
            exchangeInput.uid = user.uid
            exchangeInput.chosenBy = input.chosenBy
            exchangeInput.providerID = try ProviderID(parsing: providerID)
            webIdentityToken = try await exchange.run(exchangeInput).requireBearer(for: "AWS STS (as the web identity token)").token
        } else {
            var idToken = subjectInput
            idToken.uid = user.uid
            idToken.providerID = try ProviderID(parsing: providerID)
            idToken.minimumTTL = 60
            webIdentityToken = try await refresh.run(idToken).token
        }
        let request = AssumeRoleWithWebIdentityRequest(
            endpoint: input.endpoint, roleARN: input.roleARN, roleSessionName: sessionName, webIdentityToken: webIdentityToken,
            durationSeconds: input.durationSeconds)
        let place = "\(input.endpoint.host ?? "?")\(input.endpoint.port.map { ":\($0)" } ?? "")"
        let answer: HTTPResponse
        do {
            answer = try await transport.send(request.httpRequest)
        } catch let error as AuthError where error.code == .networkRequestFailed {
            // The party is STS, not the identity provider: name it and the options that choose it.
            let providerHint = " Check the provider's address and your network, then try again"
            let next: Message = " Check \(input: .stsEndpoint) (or \(input: .awsRegion)) and your network, then try again"
            throw error.reworded { message in
                let named: Message = "STS at \(place): " + message
                return message.description.hasSuffix(providerHint) ? named.dropping(suffix: providerHint) + next : named
            }
        }
        let credentials = try STSAnswer.parse(answer, place: place)
        let now = clock.now()
        guard credentials.expiration.timeIntervalSince(now) > 0 else {
            throw AuthError.invalidCredential(
                "STS at \(place) gave credentials that have already expired. Check this machine's clock, then run the command again")
        }
        try await TokenExchange.store(
            DerivedCredential(.aws(credentials), expiresAt: credentials.expiration), key: key, uid: user.uid, providerID: providerID,
            keystore: keystore, now: now)
        return Output(credentials: credentials, assumed: true)
    }

    /// `authctl-` and as much of the uid as `RoleSessionName` holds (the uid is URL-safe:
    /// letters, digits, `-` and `_`, all allowed there). CloudTrail shows it.
    static func defaultSessionName(uid: String) -> String {
        "authctl-" + String(uid.prefix(56))
    }
}
