/// `authctl login URL` (docs/resources.md): a sign-in that starts from a protected resource's
/// URL. Discovery (`ResourceDiscovery`) finds its authorization server; `ResourceClients`
/// finds or registers the client; the sign-in is the usual session with `resource` on both
/// requests (RFC 8707); the tokens are kept per (issuer, resource) as a `ResourceGrant`.
/// With an ID token, the identity is applied by the account rules as any sign-in's, and the
/// grant goes to the user they chose; without one, to the current user (a new one when
/// nobody is signed in).
public struct ResourceSignIn: Sendable {
    public struct Input: Sendable {
        public var resource: String
        /// `--issuer`: one of the servers the resource lists; nil: the first.
        public var issuer: String?
        /// `--client-metadata-url`: the https URL of this client's metadata document, used as
        /// its `client_id` where the server supports it.
        public var clientMetadataURL: String?
        /// The flow; its scopes replace the resource's `scopes_supported` when given.
        public var options: FlowOptions

        public init(resource: String, issuer: String? = nil, clientMetadataURL: String? = nil, options: FlowOptions) {
            self.resource = resource
            self.issuer = issuer
            self.clientMetadataURL = clientMetadataURL
            self.options = options
        }
    }

    public struct Output: Sendable, Equatable {
        public var user: User
        public var grant: ResourceGrant
        public var providerID: String
        /// True when `login` registered a new client (RFC 7591) or saved a metadata document's.
        public var registeredProvider: Bool
        public var isNewUser: Bool
    }

    let discovery: ResourceDiscovery
    let clients: ResourceClients
    let issuer: any CredentialIssuing
    let accounts: any CredentialAccountStore
    let keystore: any Keystore
    let clock: any Clock
    let random: any RandomSource

    public init(
        transport: any HTTPTransport, configStore: ConfigStore, issuer: any CredentialIssuing, accounts: any CredentialAccountStore,
        keystore: any Keystore, clock: any Clock, random: any RandomSource, secrets: any RegistrationSecrets
    ) {
        discovery = ResourceDiscovery(transport: transport)
        clients = ResourceClients(configStore: configStore, transport: transport, secrets: secrets)
        self.issuer = issuer
        self.accounts = accounts
        self.keystore = keystore
        self.clock = clock
        self.random = random
    }

    public func run(_ input: Input) async throws -> Output {
        let resource = try ResourceIdentifier(parsing: input.resource)
        guard input.options.mode != .deviceCode else {
            // The device flow's requests would need `resource` too; not offered yet.
            throw AuthError.invalidArgument(
                "a resource's sign-in runs through the browser (\(input: .noBrowser) or \(input: .manual) on a machine without one), not \(input: .deviceCode)"
            )
        }
        // The keystore is checked before anything is fetched or registered.
        _ = try keystore.read()
        let found = try await discovery.discover(resource, issuer: input.issuer)
        let client = try await clients.client(for: found.server, clientMetadataURL: input.clientMetadataURL)
        var options = input.options
        options.resource = resource.url
        if options.scopes.isEmpty { options.scopes = found.metadata.scopesSupported ?? [] }
        // DPoP as the provider's configuration and metadata say: a bound grant keeps its key
        // with its tokens, and `ResourceAuthorization` proves it at each request.
        let config = client.config
        let provider = try GenericOIDCProvider(id: try ProviderID(parsing: config.id), config: config, metadata: found.server.document)
        return try await issuer.credential(from: .interactive(options), provider: provider) { credential in
            try await store(credential, resource: resource, providerID: client.config.id, registered: client.registered)
        }
    }

    /// The grant stored: under the user the account rules chose (an ID token), or the current one.
    func store(_ credential: Credential, resource: ResourceIdentifier, providerID: String, registered: Bool) async throws -> Output {
        var tokens = credential.tokens
        tokens.needsSignInSince = nil
        tokens.idToken = nil
        let grant = ResourceGrant(
            resource: resource.description, issuer: credential.issuer, providerID: providerID, grantedAt: clock.now(), tokens: tokens)
        var chosenUID: String?
        var isNewUser = false
        if credential.hasIdentity {
            // The resource's tokens live in the grant alone: one refresh token in one place
            // (a server that rotates refresh tokens would end a copy). An identity already
            // linked keeps its own session; a new one is applied by the account rules with
            // its ID token only, as `login --id-token` applies one.
            let state = try keystore.read()
            if let owner = state.owner(of: credential.key) {
                chosenUID = state.users[owner.user].uid
            } else {
                var identity = credential
                identity.tokens = TokenSet(
                    accessToken: nil, tokenType: credential.tokens.tokenType, expiresAt: nil, refreshToken: nil,
                    idToken: credential.tokens.idToken, scopes: [])
                let result = try await accounts.signIn(with: identity, pendingHandle: nil)
                chosenUID = result.user.uid
                isNewUser = result.isNewUser
            }
        }
        let newUID = KeystoreAccountStore(keystore: keystore, clock: clock, random: random).newUID()
        let now = clock.now()
        let (user, created) = try await keystore.update { state -> (User, Bool) in
            var created = false
            let uid: String
            if let chosenUID {
                uid = chosenUID
            } else if let current = state.currentUser, current.kind == .person, current.backend == nil {
                uid = current.uid
            } else {
                // Nobody (or a workload, or a Firebase user) is signed in: a new local user
                // holds the grant, and becomes current.
                state.users.append(
                    User(
                        uid: newUID, email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: now, lastSignInAt: now,
                        lastAuthAt: now, lastProviderID: nil, providerData: []))
                uid = newUID
                created = true
            }
            guard let index = state.userIndex(uid: uid) else { throw AuthError.userRemoved(uid) }
            state.users[index].store(grant)
            state.users[index].lastSignInAt = now
            state.currentUID = uid
            return (state.users[index], created)
        }
        return Output(
            user: user, grant: grant, providerID: providerID, registeredProvider: registered, isNewUser: isNewUser || created)
    }
}
