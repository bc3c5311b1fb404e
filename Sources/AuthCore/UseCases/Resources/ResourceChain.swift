/// `authctl login URL --via PROVIDER` (docs/resources.md, "Enterprise-managed authorization
/// (identity chaining)"): a resource's grant obtained with no browser from an identity the
/// user already holds at another authorization server (AS-A, the company's identity provider),
/// as draft-ietf-oauth-identity-chaining and draft-ietf-oauth-identity-assertion-authz-grant
/// (ID-JAG, MCP's enterprise-managed authorization) describe:
///
/// 1. at AS-A's token endpoint, a token exchange (RFC 8693, through `TokenExchange`, the one
///    exchange of `token --exchange`) of the identity's ID token (else its access token) for a
///    JWT authorization grant: `requested_token_type` `…:id-jag` or `…:jwt`, `audience` AS-B's
///    issuer, `resource` the resource; the answer's `issued_token_type` must be the one asked,
///    the grant's `aud` must name AS-B, and an ID-JAG's `typ` must be `oauth-id-jag+jwt`;
/// 2. at AS-B's token endpoint (the resource's authorization server, RFC 9728 discovery), the
///    JWT-bearer grant (RFC 7523 §2.1) with that grant as `assertion`, `resource` and the scopes.
///
/// The grant goes to AS-B's token endpoint alone (the request's egress binding); AS-A's tokens
/// go to AS-A alone. The result is a `ResourceGrant` of the identity's user that names the
/// identity (`viaProviderID`): `ResourceTokens` renews it by running the chain again, since
/// AS-B issues no refresh token for it.
///
/// DPoP through the chain (RFC 9449): a DPoP-bound identity's exchange at AS-A proves the
/// identity's key (`TokenExchange`); the grant at AS-B proves a key of its own, made for this
/// grant as `login URL` makes one for a resource, where AS-B offers DPoP (ES256 in
/// `dpop_signing_alg_values_supported`, as the client's `dpop` setting allows), and its token
/// comes back bound to that key; a renewal proves the same two keys again.
public struct ResourceChain: Sendable {
    /// `--requested-token-type`: the kind of grant asked of AS-A.
    public enum GrantType: String, Sendable, Equatable, CaseIterable {
        /// An Identity Assertion JWT Authorization Grant (`urn:ietf:params:oauth:token-type:id-jag`).
        case idJAG = "id-jag"
        /// A JWT authorization grant of identity chaining (`urn:ietf:params:oauth:token-type:jwt`).
        case jwt

        /// Its token type identifier (RFC 8693 §3).
        public var identifier: String {
            switch self {
            case .idJAG: TokenExchangeRequest.TokenType.idJAG
            case .jwt: TokenExchangeRequest.TokenType.jwt
            }
        }

        /// The kind of a stored chain: what `issued_token_type` named.
        init?(identifier: String?) {
            guard let found = Self.allCases.first(where: { $0.identifier == identifier }) else { return nil }
            self = found
        }
    }

    public struct Input: Sendable {
        public var resource: String
        /// `--issuer`: one of the authorization servers the resource lists; nil: the first.
        public var issuer: String?
        /// `--via`: the identity (at AS-A) whose token is exchanged.
        public var via: ProviderID
        public var grantType: GrantType
        /// `--scope`: replaces the resource's `scopes_supported` when given.
        public var scopes: [String]
        /// `--provider`: AS-B's client to use; nil: as `login URL` finds or registers one.
        public var provider: ProviderID?
        /// The user whose identity is used; nil: the current user.
        public var uid: String?
        public var chosenBy: UserChoiceReason?

        public init(
            resource: String, issuer: String? = nil, via: ProviderID, grantType: GrantType = .idJAG, scopes: [String] = [],
            provider: ProviderID? = nil, uid: String? = nil, chosenBy: UserChoiceReason? = nil
        ) {
            self.resource = resource
            self.issuer = issuer
            self.via = via
            self.grantType = grantType
            self.scopes = scopes
            self.provider = provider
            self.uid = uid
            self.chosenBy = chosenBy
        }
    }

    let discovery: ResourceDiscovery
    let clients: ResourceClients
    let exchange: TokenExchange
    let tokens: TokenClient
    let keystore: any Keystore
    let configStore: ConfigStore
    let clock: any Clock
    /// A new grant's DPoP key is drawn from it.
    let random: any RandomSource
    /// Asks before a provider configured for another purpose is lent to the resource.
    let prompt: any ConsentPrompt

    public init(
        transport: any HTTPTransport, configStore: ConfigStore, tokens: TokenClient, exchange: TokenExchange, keystore: any Keystore,
        clock: any Clock, random: any RandomSource, secrets: any RegistrationSecrets, prompt: any ConsentPrompt,
        freePort: @escaping @Sendable ([UInt16]) -> UInt16? = { _ in nil }
    ) {
        self.prompt = prompt
        self.random = random
        discovery = ResourceDiscovery(transport: transport)
        // The port of the client's redirect URI, as `login URL` registers it (a browser sign-in
        // with the same client later listens there).
        clients = ResourceClients(configStore: configStore, transport: transport, secrets: secrets, clock: clock, freePort: freePort)
        self.exchange = exchange
        self.tokens = tokens
        self.keystore = keystore
        self.configStore = configStore
        self.clock = clock
    }

    public func run(_ input: Input) async throws -> ResourceSignIn.Output {
        // The keystore and the identity are checked before anything is fetched or registered.
        let user = try TokenRefresh.resolveUser(
            TokenRefresh.Input(providerID: input.via, uid: input.uid, chosenBy: input.chosenBy), keystore: keystore)
        guard user.identity(for: input.via.rawValue) != nil else {
            throw AuthError.noSuchProvider(
                message:
                    "\(Message.subject(user, chosenBy: input.chosenBy)) has no identity at \(input.via) to exchange. Sign in there first: \(command: .login, "\(input.via)")"
            )
        }
        let found = try await discovery.discover(try ResourceIdentifier(parsing: input.resource), issuer: input.issuer)
        let resource = found.metadata.resource
        let scopes = ResourceScopes.first(given: input.scopes, challenge: found.challengeScopes, supported: found.metadata.scopesSupported)
        let client =
            if let named = input.provider {
                try clients.configured(named, for: found.server)
            } else {
                try await clients.client(
                    for: found.server, resource: resource, clientMetadataURL: nil,
                    grantTypes: ClientRegistration.defaultGrantTypes + [TokenRequest.Grant.jwtBearerGrantType])
            }
        let config = client.config
        // As for `login URL`: a provider the person configured for another purpose is lent to a
        // resource on another origin only with their consent (`--provider`, or a yes).
        if input.provider == nil, client.isBorrowed(for: resource) {
            let lending = BorrowedProvider(
                providerID: config.id, issuer: config.issuer ?? "", resource: resource.description, scopes: scopes)
            if !(prompt.canAsk && prompt.agreesToLend(lending)) {
                throw ResourceSignIn.consentRequired(
                    lending, scopesGiven: !input.scopes.isEmpty, answeredNo: prompt.canAsk, via: input.via.rawValue)
            }
        }
        let provider = try GenericOIDCProvider(id: try ProviderID(parsing: config.id), config: config, metadata: found.server.document)
        let document = found.server.document
        let binding = TokenClient.binding(for: provider, discovery: document).adding([resource.url])
        let link = Link(via: input.via, grantType: input.grantType, resource: resource.description, scopes: scopes)
        // The grant's own key, proved at AS-B where it offers DPoP (as `login URL` decides it).
        let proof = try RequestProtection.decide(
            provider: provider, discovery: document, key: DPoPKey.generate(using: random), browser: false
        ).proof
        let chained = try await self.chained(
            link, uid: user.uid, chosenBy: input.chosenBy, provider: provider, discovery: document, proof: proof, binding: binding)
        let grant = ResourceGrant(
            resource: resource.description, issuer: document.issuer, providerID: config.id, grantedAt: clock.now(), tokens: chained,
            viaProviderID: input.via.rawValue, viaTokenType: input.grantType.identifier)
        let kept = try await keystore.update { state in
            guard let index = state.userIndex(uid: user.uid), state.users[index].identity(for: input.via.rawValue) != nil else {
                throw AuthError.userRemoved(user.uid)
            }
            state.users[index].store(grant)
            return state.users[index]
        }
        return ResourceSignIn.Output(
            user: kept, grant: grant, grants: [grant], providerID: config.id, registeredProvider: client.registered, isNewUser: false,
            owner: .identity)
    }

    /// One chain: what to exchange and what for.
    struct Link: Sendable, Equatable {
        var via: ProviderID
        var grantType: GrantType
        var resource: String
        var scopes: [String]
    }

    /// `grant`'s chain run again (`ResourceTokens`, when its token expires): the same identity,
    /// kind of grant, client, issuer and scopes; the tokens bound where the grant's were.
    func renew(_ grant: ResourceGrant, uid: String) async throws -> TokenSet {
        let via = grant.viaProviderID ?? ""
        let config = try configStore.provider(try ProviderID(parsing: grant.providerID))
        // A client is used only at the issuer it was configured or registered for.
        guard config.issuer == grant.issuer else {
            throw AuthError.notConfigured(
                "the provider \(grant.providerID) now names another issuer than the one that issued the token for \(grant.resource); authctl will not present a grant there. Sign in again: \(command: .login, "\(grant.resource)", .input(.via, via))"
            )
        }
        let provider = try ProviderRegistry.provider(for: config)
        let discovery = try await tokens.discovery(for: provider)
        guard discovery.issuer == grant.issuer else {
            throw AuthError.notConfigured(
                "the configuration of \(grant.providerID) now leads to \(Sanitize.text(discovery.issuer, limit: 200)), not \(Sanitize.text(grant.issuer, limit: 200)), which issued the token for \(grant.resource). Sign in again: \(command: .login, "\(grant.resource)", .input(.via, via))"
            )
        }
        guard let current = grant.tokens else {
            throw AuthError.invalidCredential(
                "you signed out of \(grant.resource). Sign in again: \(command: .login, "\(grant.resource)", .input(.via, via))")
        }
        // A bound grant is renewed bound to the same key; never a fall back to bearer.
        guard let proof = current.refreshProof else {
            throw AuthError.dpopKeyMissing(
                "the token for \(grant.resource)", signIn: "Sign in again: \(command: .login, "\(grant.resource)", .input(.via, via))")
        }
        // A stored type this build does not know (a newer build's, a hand edit) is not renewed as
        // another kind: the person chains again, choosing.
        guard let kind = GrantType(identifier: grant.viaTokenType) else {
            throw AuthError.invalidCredential(
                "the grant for \(grant.resource) was chained as \(Sanitize.text(grant.viaTokenType ?? "an unnamed grant type", limit: 100)), which this authctl does not know, so it is not renewed as another kind. Sign in again: \(command: .login, "\(grant.resource)", .input(.via, via))"
            )
        }
        let link = Link(via: try ProviderID(parsing: via), grantType: kind, resource: grant.resource, scopes: current.scopes)
        var renewed = try await chained(
            link, uid: uid, chosenBy: nil, provider: provider, discovery: discovery, proof: proof,
            binding: current.egress ?? grant.binding)
        if renewed.scopes.isEmpty { renewed.scopes = current.scopes }
        return renewed
    }

    /// The two steps: the exchange at AS-A (`link.via`), its answer checked, then the JWT-bearer
    /// grant at AS-B (`provider`, `discovery`) with `proof`, under `binding`.
    func chained(
        _ link: Link, uid: String, chosenBy: UserChoiceReason?, provider: any IdentityProvider, discovery: DiscoveryDocument,
        proof: TokenClient.Proof, binding: SecretBinding
    ) async throws -> TokenSet {
        let target = discovery.issuer
        let assertion = try await exchanged(link, uid: uid, chosenBy: chosenBy, audience: target)
        let issued: TokenClient.Issued
        do {
            issued = try await tokens.requestTokens(
                .jwtBearer(assertion: assertion, scopes: link.scopes), provider: provider, discovery: discovery, proof: proof,
                resource: URL(string: link.resource), binding: binding)
        } catch let error as AuthError where error.oauthError != nil {
            throw AuthError.invalidCredential(
                "\(Sanitize.text(target, limit: 100)) refused the grant that \(link.via) issued for it (\(error.message.firstSentence)). Check that it trusts \(link.via)'s issuer as a chaining issuer and allows the client \(provider.id) the JWT-bearer grant (RFC 7523); nothing was stored",
                oauthError: error.oauthError, details: error.details.merging(["resource": .string(link.resource)]) { $1 })
        }
        let response = issued.response
        var tokens = TokenSet(
            accessToken: response.accessToken, tokenType: response.tokenType,
            expiresAt: response.expiresIn.map { clock.now().addingTimeInterval($0) }, refreshToken: response.refreshToken, idToken: nil,
            scopes: response.scopes ?? link.scopes)
        tokens.proofKey = issued.proofKey
        tokens.egress = binding
        return tokens
    }

    /// Step 1: the identity's token exchanged at `link.via` for a grant addressed to `audience`
    /// (AS-B's issuer), never cached (AS-B takes each grant once); its type and `aud` checked.
    func exchanged(_ link: Link, uid: String, chosenBy: UserChoiceReason?, audience: String) async throws -> String {
        let state = try keystore.read()
        let identity = state.users.first { $0.uid == uid }?.identity(for: link.via.rawValue)
        var input = TokenExchange.Input(
            providerID: link.via, audience: audience, resource: link.resource, requestedTokenType: link.grantType.identifier,
            subjectToken: identity?.tokens?.idToken != nil ? .idToken : .accessToken, forceRefresh: true, uid: uid)
        input.chosenBy = chosenBy
        input.cached = false
        let output: TokenExchange.Output
        do {
            output = try await exchange.run(input)
        } catch let error as AuthError where error.oauthError != nil {
            throw AuthError.invalidCredential(
                "the token exchange at \(link.via) for a grant to \(Sanitize.text(audience, limit: 100)) was refused (\(error.message.firstSentence)). Check that \(link.via) trusts \(Sanitize.text(audience, limit: 100)) as a chaining target and allows this client the token-exchange grant; nothing was stored",
                oauthError: error.oauthError, details: error.details.merging(["resource": .string(link.resource)]) { $1 })
        }
        try Self.check(output, link: link, audience: audience)
        return output.token
    }

    /// The exchange's answer is the grant asked for: `issued_token_type` the requested type (a
    /// server that does not know it may fall back to another exchange and issue an access
    /// token, which AS-B must not get), a JWT whose `aud` names `audience`.
    static func check(_ output: TokenExchange.Output, link: Link, audience: String) throws {
        let asked = link.grantType.identifier
        guard output.issuedTokenType == asked else {
            throw AuthError.invalidCredential(
                "\(link.via) answered the token exchange with \(output.issuedTokenType.map { "a token of type \(Sanitize.text($0, limit: 100))" } ?? "a token of no stated type"), not the \(asked) asked for (a server that does not offer that type may issue an ordinary token instead); it was not presented to \(Sanitize.text(audience, limit: 100)) and nothing was stored. Ask for a type \(link.via) issues (\(input: .requestedTokenType) jwt or id-jag), or ask its operator to enable identity chaining to \(Sanitize.text(audience, limit: 100))",
                details: [
                    "issuedTokenType": .string(Sanitize.text(output.issuedTokenType ?? "", limit: 200)),
                    "requestedTokenType": .string(asked),
                ])
        }
        // An ID-JAG is a typed JWT (draft-ietf-oauth-identity-assertion-authz-grant, RFC 8725
        // §3.11): a JWT of another kind (an ID token, an access token) is not one, whatever
        // `issued_token_type` said.
        if link.grantType == .idJAG, !Self.isIDJAGType(Self.joseType(of: output.token)) {
            let typ = Self.joseType(of: output.token).map { "typ \(Sanitize.text($0, limit: 100))" } ?? "no typ"
            throw AuthError.invalidCredential(
                "the grant that \(link.via) issued as an ID-JAG has \(typ), not oauth-id-jag+jwt: it is not an Identity Assertion JWT Authorization Grant, so it was not presented to \(Sanitize.text(audience, limit: 100)) and nothing was stored. Ask the operator of \(link.via) to issue ID-JAGs as the draft types them, or ask for an identity-chaining grant (\(input: .requestedTokenType) jwt)",
                details: ["typ": .string(Sanitize.text(Self.joseType(of: output.token) ?? "", limit: 200))])
        }
        // An ID-JAG names AS-B alone (the draft's `aud`: the issuer of the authorization server
        // it is for); an identity-chaining JWT must name it among any others.
        let audiences = ResourceAudience.audiences(of: output.token)
        guard let audiences, link.grantType == .idJAG ? audiences == [audience] : audiences.contains(audience) else {
            let named =
                audiences.map {
                    $0.isEmpty
                        ? "no audience (aud)" : "the audience \($0.prefix(3).map { Sanitize.text($0, limit: 100) }.joined(separator: ", "))"
                }
                ?? "nothing readable (it is not a signed JWT)"
            throw AuthError.invalidCredential(
                "the grant that \(link.via) issued names \(named), not \(Sanitize.text(audience, limit: 100)), the resource's authorization server: it was not presented and nothing was stored. Ask the operator of \(link.via) to issue chaining grants with the target's issuer as their audience",
                details: ["audience": .array((audiences ?? []).prefix(10).map { .string(Sanitize.text($0, limit: 200)) })])
        }
    }

    /// The JOSE header's `typ` of a compact JWT; nil when it has none or is not a JWT.
    static func joseType(of token: String) -> String? {
        guard let header = token.split(separator: ".", maxSplits: 1).first, header.utf8.count <= 8192,
            let bytes = Base64URL.decode(String(header)), case .string(let typ)? = JSONValue.object(from: bytes)?["typ"]
        else { return nil }
        return typ
    }

    /// `typ` names an ID-JAG: `oauth-id-jag+jwt`, with or without `application/`, in any case
    /// (RFC 7515 §4.1.9).
    static func isIDJAGType(_ typ: String?) -> Bool {
        guard var typ = typ?.lowercased() else { return false }
        if typ.hasPrefix("application/") { typ.removeFirst("application/".count) }
        return typ == "oauth-id-jag+jwt"
    }
}
