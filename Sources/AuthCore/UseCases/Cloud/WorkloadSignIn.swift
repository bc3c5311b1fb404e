/// `authctl login PROVIDER --client-credentials`: a workload signs in as itself (docs/sign-in.md
/// "Workloads"). The grant runs first; only a token in hand changes the keystore, where the
/// workload becomes (or stays) a user of kind `workload`, current.
///
/// Workloads live in the keystore whatever the backend: they are the machine's own
/// accounts, not a person's in a user database.
public struct WorkloadSignIn: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID
        public var client: WorkloadClient

        public init(providerID: ProviderID, client: WorkloadClient) {
            self.providerID = providerID
            self.client = client
        }
    }

    let keystore: any Keystore
    let configStore: ConfigStore
    let grant: WorkloadGrant
    let clock: any Clock
    let random: any RandomSource

    public init(keystore: any Keystore, configStore: ConfigStore, grant: WorkloadGrant, clock: any Clock, random: any RandomSource) {
        self.keystore = keystore
        self.configStore = configStore
        self.grant = grant
        self.clock = clock
        self.random = random
    }

    public func run(_ input: Input) async throws -> SignIn.Output {
        // An unsafe or corrupt keystore fails before anything is sent.
        _ = try keystore.read()
        let provider = try WorkloadGrant.provider(try configStore.workloadProvider(input.providerID), for: input.client)
        let result = try await grant.run(input.client, provider: provider, newKey: DPoPKey.generate(using: random))
        var credential = Credential(
            providerID: input.providerID.rawValue, issuer: result.issuer, federatedID: input.client.clientID, profile: Profile(),
            tokens: result.tokens, claims: IDTokenClaims(raw: [:]))
        credential.workload = input.client
        let context = KeystoreAccountStore(keystore: keystore, clock: clock, random: random).context()
        let signedIn = try await keystore.update { state in try AccountRules.signInWorkload(&state, with: credential, context: context) }
        return SignIn.Output(user: signedIn.user, providerID: credential.providerID, isNewUser: signedIn.isNewUser)
    }
}
