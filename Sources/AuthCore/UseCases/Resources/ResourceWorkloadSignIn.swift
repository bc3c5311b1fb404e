/// `authctl login URL --client-credentials` or `--jwt-bearer` (docs/resources.md, "Machines and
/// CI"): a workload signs in to a protected resource by its URL as itself, with a client its
/// authorization server registered for it (a secret, `private_key_jwt`, or a federated assertion:
/// the `login PROVIDER --client-credentials` options), or with its token as the grant (RFC 7523
/// §2.1). No browser, no registration: the resource's authorization server is discovered as for a
/// person, the workload's grant asks for a token for the resource (RFC 8707), and the workload
/// becomes (or stays) a user of kind `workload`, current, holding the grant. Without a refresh
/// token the grant runs again when the token is needed (`ResourceTokens`).
public struct ResourceWorkloadSignIn: Sendable {
    public struct Input: Sendable {
        public var resource: String
        /// `--issuer`: one of the authorization servers the resource lists.
        public var issuer: String?
        /// `--provider`: the configured provider of that server to use.
        public var provider: ProviderID?
        public var client: WorkloadClient

        public init(resource: String, issuer: String? = nil, provider: ProviderID? = nil, client: WorkloadClient) {
            self.resource = resource
            self.issuer = issuer
            self.provider = provider
            self.client = client
        }
    }

    let discovery: ResourceDiscovery
    let clients: ResourceClients
    let grant: WorkloadGrant
    let keystore: any Keystore
    let clock: any Clock
    let random: any RandomSource

    public init(
        transport: any HTTPTransport, configStore: ConfigStore, tokens: TokenClient, keystore: any Keystore, clock: any Clock,
        random: any RandomSource, secrets: any RegistrationSecrets
    ) {
        discovery = ResourceDiscovery(transport: transport)
        clients = ResourceClients(configStore: configStore, transport: transport, secrets: secrets, clock: clock)
        grant = WorkloadGrant(tokens: tokens, clock: clock)
        self.keystore = keystore
        self.clock = clock
        self.random = random
    }

    public func run(_ input: Input) async throws -> ResourceSignIn.Output {
        // An unsafe or corrupt keystore fails before anything is sent.
        _ = try keystore.read()
        let found = try await discovery.discover(try ResourceIdentifier(parsing: input.resource), issuer: input.issuer)
        let resource = found.metadata.resource
        let saved = try await clients.workloadProvider(input.provider, for: found.server, resource: resource)
        var client = input.client
        client.scopes = ResourceScopes.first(
            given: client.scopes, challenge: found.challengeScopes, supported: found.metadata.scopesSupported)
        let provider = try WorkloadGrant.provider(saved.config, for: client)
        let result = try await grant.run(client, provider: provider, newKey: DPoPKey.generate(using: random), resource: resource.url)
        var credential = Credential(
            providerID: saved.config.id, issuer: result.issuer, federatedID: client.clientID, profile: Profile(), tokens: result.tokens,
            claims: IDTokenClaims(raw: [:]))
        credential.workload = client
        let resourceGrant = ResourceGrant(
            resource: resource.description, issuer: result.issuer, providerID: saved.config.id, grantedAt: clock.now(),
            tokens: result.tokens)
        let context = KeystoreAccountStore(keystore: keystore, clock: clock, random: random).context()
        let signedIn = try await keystore.update { state in
            let signedIn = try AccountRules.signInWorkload(&state, with: credential, context: context)
            guard let index = state.userIndex(uid: signedIn.user.uid) else { throw AuthError.userRemoved(signedIn.user.uid) }
            state.users[index].store(resourceGrant)
            return (signedIn, state.users[index])
        }
        return ResourceSignIn.Output(
            user: signedIn.1, grant: resourceGrant, grants: [resourceGrant], providerID: saved.config.id,
            registeredProvider: saved.registered,
            isNewUser: signedIn.0.isNewUser, owner: .identity)
    }
}
