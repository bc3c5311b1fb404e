/// `authctl login URL` (docs/resources.md): a sign-in that starts from a protected resource's
/// URL. Discovery (`ResourceDiscovery`) finds its authorization server; `ResourceClients`
/// finds or registers the client; the sign-in is the usual session with `resource` on both
/// requests (RFC 8707); the tokens are kept per (issuer, resource) as a `ResourceGrant`.
/// A borrowed provider (`ResourceClients.Client.isBorrowed`) is used only with the person's
/// consent: `--provider P`, or a yes to the question that names provider, resource and scopes.
/// With an ID token, the identity is applied by the account rules as any sign-in's, and the
/// grant goes to the user they chose; without one, the server named nobody, and the grant goes
/// to the person who ran the command: the current user (a new one when nobody is signed in),
/// as `Output.owner` says. A grant is no sign-in of its user: `lastSignInAt` and
/// `lastProviderID` stay as they were.
public struct ResourceSignIn: Sendable {
    public struct Input: Sendable {
        public var resource: String
        /// `login URL URL2 …`: more resources of the same authorization server, signed in to
        /// by the same sign-in (docs/resources.md, "Several resources, one sign-in").
        public var moreResources: [String]
        /// `--issuer`: one of the servers the resource lists; nil: the first.
        public var issuer: String?
        /// `--client-metadata-url`: the https URL of this client's metadata document, used as
        /// its `client_id` where the server supports it.
        public var clientMetadataURL: String?
        /// The flow; its scopes replace the resource's `scopes_supported` when given.
        public var options: FlowOptions
        /// The provider (client) to use: `--provider P`, or a step-up's grant's own provider.
        public var provider: ProviderID?
        /// True when the person named `provider` (`--provider`): their consent to lend it. A
        /// step-up names the grant's provider without it, and a borrowed one is asked about again.
        public var consented: Bool
        /// The issuer of the grant this sign-in replaces (`request` after a failed renewal):
        /// a resource that names another server now moves there only with the person's
        /// consent. nil: `login URL` run by the person, which is their consent.
        public var movingFrom: String?

        public init(
            resource: String, moreResources: [String] = [], issuer: String? = nil, clientMetadataURL: String? = nil, options: FlowOptions,
            provider: ProviderID? = nil, consented: Bool = false, movingFrom: String? = nil
        ) {
            self.movingFrom = movingFrom
            self.resource = resource
            self.moreResources = moreResources
            self.issuer = issuer
            self.clientMetadataURL = clientMetadataURL
            self.options = options
            self.provider = provider
            self.consented = consented
        }
    }

    public struct Output: Sendable, Equatable {
        public var user: User
        /// The first resource's grant, which holds the sign-in's refresh token.
        public var grant: ResourceGrant
        /// Every grant of the sign-in, `grant` first; the others name it (`refreshTokenOf`).
        public var grants: [ResourceGrant]
        public var providerID: String
        /// True when `login` registered a new client (RFC 7591) or saved a metadata document's.
        public var registeredProvider: Bool
        public var isNewUser: Bool
        /// Why the grant is kept under `user`.
        public var owner: GrantOwner
    }

    /// Who holds a resource's grant (docs/resources.md).
    public typealias GrantOwner = AccountRules.GrantOwner

    let discovery: ResourceDiscovery
    let clients: ResourceClients
    let issuer: any CredentialIssuing
    /// Where the grant is kept, in one change under the keystore lock (`storeResourceGrant`).
    let accounts: any CredentialAccountStore
    let clock: any Clock
    let prompt: any ConsentPrompt

    public init(
        transport: any HTTPTransport, configStore: ConfigStore, issuer: any CredentialIssuing, accounts: any CredentialAccountStore,
        clock: any Clock, secrets: any RegistrationSecrets, prompt: any ConsentPrompt,
        freePort: @escaping @Sendable ([UInt16]) -> UInt16? = { _ in nil }
    ) {
        self.prompt = prompt
        discovery = ResourceDiscovery(transport: transport)
        clients = ResourceClients(configStore: configStore, transport: transport, secrets: secrets, clock: clock, freePort: freePort)
        self.issuer = issuer
        self.accounts = accounts
        self.clock = clock
    }

    public func run(_ input: Input) async throws -> Output {
        let asked = try ResourceIdentifier(parsing: input.resource)
        guard !input.options.polls else {
            // The device flow's and CIBA's requests would need `resource` too; not offered yet.
            throw AuthError.invalidArgument(
                "a resource's sign-in runs through the browser (\(input: .noBrowser), \(input: .manual) or \(input: .remote) on a machine without one), not \(input: .deviceCode) or \(input: .ciba)"
            )
        }
        // The keystore is checked before anything is fetched or registered.
        _ = try accounts.accounts()
        let found = try await discovery.discover(asked, issuer: input.issuer)
        // The metadata's resource: the URL asked, or a resource on its origin that covers it.
        let resource = found.metadata.resource
        // `login URL URL2 …`: every other resource at the same server, before anything is registered or opened.
        let more = try await moreResources(input, sameServerAs: found)
        // Another server than the grant's: moved to only with the person's consent (SEP-2352).
        if let from = input.movingFrom, from != found.server.document.issuer {
            let move = ServerMove(resource: resource.description, from: from, to: found.server.document.issuer)
            guard prompt.canAsk, prompt.agreesToMove(move) else { throw Self.moveConsentRequired(move, answeredNo: prompt.canAsk) }
        }
        var options = input.options
        options.resource = resource.url
        options.moreResources = more.map(\.metadata.resource.url)
        let scopesGiven = !options.scopes.isEmpty
        // Each resource's scopes as its own sign-in would choose them, asked together, each once.
        options.scopes = ([found] + more).flatMap {
            ResourceScopes.first(given: options.scopes, challenge: $0.challengeScopes, supported: $0.metadata.scopesSupported)
        }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let client =
            if let named = input.provider {
                try clients.configured(named, for: found.server)
            } else {
                try await clients.client(
                    for: found.server, resource: resource, also: more.map(\.metadata.resource), clientMetadataURL: input.clientMetadataURL)
            }
        // A provider the person configured for another purpose (their company's IdP) is lent
        // to a resource on another origin only with their consent (docs/security.md).
        for each in [resource] + more.map(\.metadata.resource) where !input.consented && client.isBorrowed(for: each) {
            try askConsent(client.config, resource: each, scopes: options.scopes, scopesGiven: scopesGiven)
        }
        // DPoP as the provider's configuration and metadata say: a bound grant keeps its key
        // with its tokens, and `ResourceAuthorization` proves it at each request.
        let config = client.config
        let provider = try GenericOIDCProvider(id: try ProviderID(parsing: config.id), config: config, metadata: found.server.document)
        do {
            let resources = [resource] + more.map(\.metadata.resource)
            let binding = resources.count > 1 ? TokenClient.binding(for: provider, discovery: found.server.document) : nil
            return try await issuer.credential(from: .interactive(options), provider: provider) { credential in
                try await store(credential, resources: resources, binding: binding, providerID: config.id, registered: client.registered)
            }
        } catch let error as AuthError where error.portInUse != nil && Self.ownPort(of: config, options) == error.portInUse {
            throw Self.registeredPortTaken(config, resource: resource, port: error.portInUse ?? 0)
        }
    }

    /// The port of the redirect URI authctl registered for `config` (one the server compares
    /// exactly), when this sign-in listens on it (no `--listen-address` or `--redirect-uri`).
    static func ownPort(of config: ProviderConfig, _ options: FlowOptions) -> UInt16? {
        guard config.registeredDynamically, options.listenAddress == nil, options.redirectURI == nil,
            let port = config.redirectURI.flatMap(URL.init(string:))?.port
        else { return nil }
        return UInt16(exactly: port)
    }

    /// The registered redirect URI's port is another program's: the server takes that URI
    /// only, so another port cannot help; what can, in the person's words. Nothing was changed.
    static func registeredPortTaken(_ config: ProviderConfig, resource: ResourceIdentifier, port: UInt16) -> AuthError {
        AuthError.portInUse(
            "the port \(port) of the redirect URI that authctl registered as \(config.id) at \(Sanitize.text(config.issuer ?? "", limit: 100)) is in use by another program, and that server takes that exact URI only. Stop what uses the port and sign in again, or register authctl anew on another port (its grants go with the old client): \(command: .providersRemove, "\(config.id)"), then \(command: .login, "\(resource.description)")",
            port: port)
    }

    /// A yes from the person at the terminal, naming provider, resource and scopes; without a
    /// terminal, or with a no, `consent-required` with the command that gives it.
    func askConsent(_ config: ProviderConfig, resource: ResourceIdentifier, scopes: [String], scopesGiven: Bool) throws {
        let lending = BorrowedProvider(
            providerID: config.id, issuer: config.issuer ?? "", resource: resource.description, scopes: scopes)
        if prompt.canAsk, prompt.agreesToLend(lending) { return }
        throw Self.consentRequired(lending, scopesGiven: scopesGiven, answeredNo: prompt.canAsk)
    }

    /// `consent-required` (docs/resources.md): who would get what, and the command that agrees —
    /// `login URL --provider P`, with the scopes when they were not the resource's defaults.
    /// - Parameter via: `login URL --via P`'s identity, named again in the command.
    static func consentRequired(_ lending: BorrowedProvider, scopesGiven: Bool, answeredNo: Bool, via: String? = nil) -> AuthError {
        var arguments: [Message.Argument] = ["\(lending.resource)", .input(.provider, lending.providerID)]
        if let via { arguments.append(.input(.via, via)) }
        if scopesGiven { arguments += lending.scopes.map { .input(.scope, $0) } }
        let scopes = lending.scopes.isEmpty ? "no scope" : "the scopes \(lending.scopes.joined(separator: " "))"
        let issuer = Sanitize.text(lending.issuer, limit: 100)
        let why: Message =
            answeredNo
            ? "you did not agree to lend your provider \(lending.providerID) (\(issuer)) to the resource \(lending.resource)"
            : "the resource \(lending.resource) signs in at \(issuer), for which you configured the provider \(lending.providerID); authctl lends a provider of yours to a resource on another origin only with your consent, and nobody is at the terminal to give it"
        return AuthError.consentRequired(
            "\(why): the resource would get a token of your \(lending.providerID) account with \(scopes), and could use it wherever that account's tokens are accepted. Nothing was signed in. If you trust the resource with it: \(command: .login, arguments: arguments)",
            details: [
                "providerId": .string(lending.providerID), "issuer": .string(lending.issuer), "resource": .string(lending.resource),
                "scopes": .array(lending.scopes.map(JSONValue.string)),
            ])
    }

    /// `consent-required` for a move to another authorization server: the command that agrees
    /// is `login URL`, run by the person. The old grant is untouched.
    static func moveConsentRequired(_ move: ServerMove, answeredNo: Bool) -> AuthError {
        let from = Sanitize.text(move.from, limit: 100)
        let to = Sanitize.text(move.to, limit: 100)
        let why: Message =
            answeredNo
            ? "you did not agree to sign in to the resource \(move.resource) at \(to), the authorization server it names now instead of \(from)"
            : "the resource \(move.resource) now names the authorization server \(to) instead of \(from), which issued your token for it; authctl moves a resource to another server only with your consent, and nobody is at the terminal to give it"
        return AuthError.consentRequired(
            "\(why). Nothing was signed in; your grant from \(from) is kept. If you trust the new server: \(command: .login, "\(move.resource)")",
            details: ["resource": .string(move.resource), "issuer": .string(move.to), "previousIssuer": .string(move.from)])
    }

    /// The grants stored — one per resource, the first holding the refresh token, the others
    /// naming it, each bound to its own resource (`binding`: the server's endpoints, for a
    /// sign-in for several) —: under the user the account rules chose (an ID token), or the
    /// current one, in one change of the keystore (`AccountRules.storeGrant`).
    func store(
        _ credential: Credential, resources: [ResourceIdentifier], binding: SecretBinding?, providerID: String, registered: Bool
    ) async throws -> Output {
        var tokens = credential.tokens
        tokens.needsSignInSince = nil
        tokens.idToken = nil
        let grants = resources.enumerated().map { index, resource in
            var own = tokens
            if let binding { own.egress = binding.adding([resource.url]) }
            if index > 0 { own.refreshToken = nil }
            return ResourceGrant(
                resource: resource.description, issuer: credential.issuer, providerID: providerID, grantedAt: clock.now(), tokens: own,
                refreshTokenOf: index > 0 ? resources[0].description : nil)
        }
        let kept = try await accounts.storeResourceGrant(
            grants[0], more: Array(grants.dropFirst()), identity: credential.hasIdentity ? credential : nil)
        return Output(
            user: kept.user, grant: grants[0], grants: grants, providerID: providerID, registeredProvider: registered,
            isNewUser: kept.isNewUser, owner: kept.owner)
    }
}
