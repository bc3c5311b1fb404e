import Synchronization

/// `authctl request` (docs/resources.md): one HTTP request to a protected resource with the
/// current user's grant for its URL. A 401 `invalid_token` refreshes the token once and
/// sends again — unless the resource's metadata no longer lists the grant's authorization
/// server (MCP SEP-2352), a move the caller asks the person about (`Outcome.serverMoved`); a
/// 403 `insufficient_scope` (RFC 6750 §3.1) or a 401 `insufficient_user_authentication`
/// (RFC 9470 §3) is answered with the step-up it asks for, which the caller runs (a person at
/// the terminal) or turns into `step-up-required`.
public struct ResourceRequest: Sendable {
    public struct Input: Sendable {
        public var method: String
        public var url: URL
        public var headers: [(String, String)]
        public var body: Data?
        /// The user whose grant to use; nil: the current user.
        public var uid: String?
        /// Why `uid` was chosen: errors name the user and it.
        public var chosenBy: UserChoiceReason?

        public init(method: String = "GET", url: URL, headers: [(String, String)] = [], body: Data? = nil) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }
    }

    /// What the resource asks for before it answers.
    public struct StepUp: Sendable, Equatable {
        /// The resource to sign in to again.
        public var resource: String
        /// The authorization server of the grant: the step-up goes there, not to another the
        /// resource may list.
        public var issuer: String? = nil
        /// The grant's provider: the step-up uses it again, and asks the person's consent again
        /// when it is borrowed (docs/resources.md), since the scopes grow.
        public var providerID: String? = nil
        /// The scopes to ask: those held and those the resource named.
        public var scopes: [String]
        /// RFC 9470: `acr_values` and `max_age` for the authorization request.
        public var acrValues: String?
        public var maxAge: Int?
        /// The challenge's `error`.
        public var error: String
        /// False when a 403 `insufficient_scope` named no scope (django-oauth-toolkit 3.4 names
        /// none): `scopes` then holds the grant's and `lacking`.
        public var scopeNamed = true
        /// When the resource named no scope: those of its `scopes_supported` (RFC 9728) that the
        /// grant lacks; nil when its metadata could not be read or lists no scopes.
        public var lacking: [String]? = nil

        public init(resource: String, scopes: [String], acrValues: String? = nil, maxAge: Int? = nil, error: String) {
            self.resource = resource
            self.scopes = scopes
            self.acrValues = acrValues
            self.maxAge = maxAge
            self.error = error
        }

        /// Whether `other` asks for what this one asked (the same scopes, in any order, and the
        /// same authentication): a sign-in that did not satisfy it once will not the next time.
        public func asksTheSame(as other: StepUp) -> Bool {
            error == other.error && Set(scopes) == Set(other.scopes) && acrValues == other.acrValues && maxAge == other.maxAge
                && resource == other.resource
        }
    }

    public enum Outcome: Sendable, Equatable {
        /// The resource's answer (any status but a step-up challenge), read whole.
        case answered(HTTPResponse)
        /// The resource's answer (any status but a step-up challenge) whose body went to the
        /// sink as it arrived.
        case streamed(HTTPResponseHead)
        case stepUp(StepUp)
        /// A 401 from a resource whose metadata (RFC 9728) no longer lists the authorization
        /// server that issued the grant (MCP SEP-2352): the caller signs in where it names now,
        /// with the person's consent, for `scopes` (the grant's). Nothing was refreshed, and no
        /// token went anywhere but the resource.
        case serverMoved(ServerMove, scopes: [String])
    }

    /// The most bytes of an answer read whole (`run(_:)`, `--json`): 16 MiB. A streamed
    /// answer has no bound.
    public static let responseLimit = 16 << 20

    let tokens: ResourceTokens
    let transport: any HTTPTransport
    /// A DPoP-bound grant's proofs draw their `jti` here and their `iat` from the clock.
    let random: any RandomSource
    let clock: any Clock

    public init(tokens: ResourceTokens, transport: any HTTPTransport, random: any RandomSource, clock: any Clock) {
        self.tokens = tokens
        self.transport = transport
        self.random = random
        self.clock = clock
    }

    /// Sends the request and reads the answer whole (at most `responseLimit` bytes).
    public func run(_ input: Input) async throws -> Outcome {
        try await exchange(input, sink: nil)
    }

    /// Sends the request and hands the answer's body to `sink` as it arrives, with no bound
    /// on its size or its duration. Whether to send again (a refresh, a DPoP nonce) or to
    /// step up is decided from the status and headers before any byte reaches the sink; the
    /// body of such an answer is dropped (at most `StreamDecision.discardLimit` bytes read).
    public func run(_ input: Input, streamingTo sink: any ResponseSink) async throws -> Outcome {
        try await exchange(input, sink: sink)
    }

    /// What an answer's head asks of the next step.
    enum Verdict: Sendable, Equatable {
        /// RFC 6750 §3.1 `invalid_token` (or a 401 without an error): expired or revoked
        /// early. One refresh, one retry.
        case refresh
        /// RFC 9449 §9: a resource that wants a DPoP nonce says so once; the proof is made
        /// again with it.
        case nonce(String)
        case stepUp(StepUp)
        /// The answer to give.
        case answer
    }

    private func exchange(_ input: Input, sink: (any ResponseSink)?) async throws -> Outcome {
        let method = input.method.uppercased()
        guard !method.isEmpty, method.utf8.allSatisfy({ (0x41...0x5A).contains($0) }), method.count <= 16 else {
            throw AuthError.invalidArgument(
                "'\(Sanitize.text(input.method, limit: 20))' is not an HTTP method. Use for example GET or POST")
        }
        if input.headers.contains(where: { $0.0.equalsIgnoringCase("Authorization") || $0.0.equalsIgnoringCase("DPoP") }) {
            throw AuthError.invalidArgument("authctl sets the Authorization header itself from the resource's grant. Remove that header")
        }
        // The URL the grant is chosen for is the URL sent: dot segments removed now, encoded
        // dots and slashes refused, and libcurl sends the path as it is (CURLOPT_PATH_AS_IS).
        var input = input
        input.url = try RequestURL.normalized(input.url)
        var token = try await tokens.token(for: input.url, uid: input.uid, chosenBy: input.chosenBy)
        var refreshed = false
        var nonce: String?
        while true {
            let request = try self.request(input, method: method, token: token, nonce: nonce)
            let state = (token: token, refreshed: refreshed, nonceSent: nonce != nil)
            let verdict: Verdict
            let outcome: Outcome
            let head: HTTPResponseHead
            if let sink {
                // Decided on the head, before the body: only the answer to give reaches the sink.
                let decided = Mutex<Verdict?>(nil)
                head = try await transport.stream(
                    request,
                    decide: { head in
                        let verdict = Self.verdict(head, token: state.token, refreshed: state.refreshed, nonceSent: state.nonceSent)
                        decided.withLock { $0 = verdict }
                        guard verdict == .answer else { return .discard }
                        try sink.head(head)
                        return .stream
                    }, sink: { try sink.body($0) })
                verdict =
                    decided.withLock { $0 } ?? Self.verdict(head, token: token, refreshed: refreshed, nonceSent: nonce != nil)
                outcome = .streamed(head)
            } else {
                let response = try await transport.send(request)
                head = response.head
                verdict = Self.verdict(response.head, token: token, refreshed: refreshed, nonceSent: nonce != nil)
                outcome = .answered(response)
            }
            switch verdict {
            case .refresh:
                // A resource that names another server now: no refresh there, the move is the caller's.
                if let move = await serverMove(head, grant: token.grant) { return .serverMoved(move, scopes: token.scopes) }
                token = try await tokens.token(for: input.url, forceRefresh: true, uid: input.uid, chosenBy: input.chosenBy)
                refreshed = true
                nonce = nil
            case .nonce(let given):
                nonce = given
            case .stepUp(let stepUp):
                return .stepUp(await lackingScopes(stepUp))
            case .answer:
                return outcome
            }
        }
    }

    /// The request with the grant's token (and a DPoP proof of it).
    private func request(_ input: Input, method: String, token: ResourceTokens.Output, nonce: String?) throws -> HTTPRequest {
        // The grant covers this URL (`User.resourceGrant(for:)`): its token goes nowhere else.
        guard let resource = try? ResourceIdentifier(parsing: token.grant.resource), resource.covers(input.url) else {
            throw AuthError.internalError("the grant for \(token.grant.resource) does not cover the request's URL")
        }
        // RFC 8707: a JWT for another audience is never sent (checked again after a refresh).
        try ResourceAudience.check(token.accessToken, for: token.grant)
        var headers: [String: String] = [:]
        for (name, value) in input.headers { headers[name] = value }
        for (name, value) in try ResourceAuthorization.headers(
            accessToken: token.accessToken, tokenType: token.tokenType, proofKey: token.proofKey, method: method, url: input.url,
            now: clock.now(),
            random: random, nonce: nonce)
        {
            headers[name] = value
        }
        var request = HTTPRequest(method: method, url: input.url, headers: headers, body: input.body, responseLimit: Self.responseLimit)
        // And only to where the grant's tokens were bound when they were obtained.
        request.egress = .bound(token.grant.binding, provider: token.grant.providerID)
        try request.checkHeaders()
        return request
    }

    /// What the head of an answer asks: a nonce (once per token), a refresh (once), a step-up,
    /// or nothing more.
    static func verdict(_ head: HTTPResponseHead, token: ResourceTokens.Output, refreshed: Bool, nonceSent: Bool) -> Verdict {
        if token.proofKey != nil, !nonceSent, DPoPNonces.asksForNonce(head.response), let given = head.header("DPoP-Nonce") {
            return .nonce(given)
        }
        let challenge = Self.challenge(head)
        if head.status == 401, !refreshed, challenge?.error != "insufficient_user_authentication" {
            return .refresh
        }
        guard let challenge else { return .answer }
        if head.status == 403, challenge.error == "insufficient_scope" {
            var scopes = token.scopes
            for scope in challenge.scopes where BoundedJSON.isScope(scope) && !scopes.contains(scope) { scopes.append(scope) }
            var stepUp = StepUp(resource: token.grant.resource, scopes: scopes, error: "insufficient_scope")
            stepUp.scopeNamed = challenge.scopes.contains(where: BoundedJSON.isScope)
            stepUp.issuer = token.grant.issuer
            stepUp.providerID = token.grant.providerID
            return .stepUp(stepUp)
        }
        if head.status == 401, challenge.error == "insufficient_user_authentication" {
            let acr = challenge.acrValues.flatMap { $0.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 }) ? $0 : nil }
            var stepUp = StepUp(
                resource: token.grant.resource, scopes: token.scopes, acrValues: acr, maxAge: challenge.maxAge,
                error: "insufficient_user_authentication")
            stepUp.issuer = token.grant.issuer
            stepUp.providerID = token.grant.providerID
            return .stepUp(stepUp)
        }
        return .answer
    }

    /// A 403 `insufficient_scope` that named no scope (django-oauth-toolkit 3.4 names none):
    /// the step-up asks, besides the grant's scopes, for those of the resource's
    /// `scopes_supported` (RFC 9728) that the grant lacks. Metadata that cannot be read leaves
    /// `lacking` nil: the caller says that nothing is known to ask for.
    private func lackingScopes(_ stepUp: StepUp) async -> StepUp {
        guard stepUp.error == "insufficient_scope", !stepUp.scopeNamed, let resource = try? ResourceIdentifier(parsing: stepUp.resource),
            let metadata = try? await ResourceDiscovery(transport: transport).resourceMetadata(resource),
            let supported = metadata.scopesSupported
        else { return stepUp }
        var stepUp = stepUp
        var lacking: [String] = []
        for scope in supported where BoundedJSON.isScope(scope) && !stepUp.scopes.contains(scope) && !lacking.contains(scope) {
            lacking.append(scope)
        }
        stepUp.lacking = lacking
        stepUp.scopes += lacking
        return stepUp
    }

    static func challenge(_ head: HTTPResponseHead) -> BearerChallenge? {
        guard let header = head.header("WWW-Authenticate") else { return nil }
        return BearerChallenge.parse(header).first
    }
}
