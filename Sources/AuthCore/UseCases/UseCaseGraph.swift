/// The ports one command runs on: the real implementations the command layer chose
/// (`Wiring.useCases`, Sources/AuthctlCommands/Wiring.swift), or the tests' fakes
/// (`TestEnvironment`, Sources/AuthCoreTestSupport/TestEnvironment.swift).
public struct UseCasePorts: Sendable {
    public var transport: any HTTPTransport
    public var clock: any Clock
    public var random: any RandomSource
    public var browser: any BrowserLauncher
    public var keystore: any Keystore
    public var configStore: ConfigStore
    public var metadataCache: any MetadataCache
    public var secrets: any SecretSource
    /// Where the use cases and the sign-ins report their events.
    public var events: any AuthEventSink
    /// The loopback listener, or the terminal for `--manual`.
    public var redirectReceivers: any RedirectReceivers
    /// Asks a person before a private-relay link or a resource's consent.
    public var prompt: any ConsentPrompt
    /// `FIREBASE_AUTH_EMULATOR_HOST` as the environment gave it (parsed where a Firebase
    /// client is made).
    public var firebaseEmulatorHost: String?
    /// The Firebase project's client when config.json's backend is Firebase; nil: local.
    public var firebase: @Sendable () throws -> FirebaseAuthClient?
    /// Where dynamically registered clients' registration access tokens were kept before
    /// the keystore held them (docs/resources.md): a private file beside the keystore.
    public var registrationSecretsPath: String

    public init(
        transport: any HTTPTransport, clock: any Clock, random: any RandomSource, browser: any BrowserLauncher, keystore: any Keystore,
        configStore: ConfigStore, metadataCache: any MetadataCache, secrets: any SecretSource, events: any AuthEventSink,
        redirectReceivers: any RedirectReceivers, prompt: any ConsentPrompt, firebaseEmulatorHost: String? = nil,
        firebase: @escaping @Sendable () throws -> FirebaseAuthClient? = { nil }, registrationSecretsPath: String = ""
    ) {
        self.transport = transport
        self.clock = clock
        self.random = random
        self.browser = browser
        self.keystore = keystore
        self.configStore = configStore
        self.metadataCache = metadataCache
        self.secrets = secrets
        self.events = events
        self.redirectReceivers = redirectReceivers
        self.prompt = prompt
        self.firebaseEmulatorHost = firebaseEmulatorHost
        self.firebase = firebase
        self.registrationSecretsPath = registrationSecretsPath
    }
}

/// The one object graph of a command: built once from its ports (as kubelogin's `di`
/// builds its commands from theirs), it makes the one `TokenClient` of the command — so one
/// set of DPoP nonces (`DPoPNonces`) — and builds every use case from the ports and that
/// client. The executable (`Wiring.useCases`) and the tests (`TestEnvironment.graph`) both
/// build it here, so the tests run the graph the executable runs.
@dynamicMemberLookup
public struct UseCaseGraph: Sendable {
    public private(set) var ports: UseCasePorts
    /// The one client of the providers' token endpoints: every grant, revocation and
    /// introspection of this command goes through it.
    public let tokens: TokenClient

    public init(_ ports: UseCasePorts) {
        self.ports = ports
        tokens = TokenClient(
            transport: ports.transport, clock: ports.clock, random: ports.random, metadataCache: ports.metadataCache,
            secrets: ports.secrets,
            registrations: KeystoreRegistrationSecrets(keystore: ports.keystore, legacyPath: ports.registrationSecretsPath))
    }

    public subscript<Value>(dynamicMember port: KeyPath<UseCasePorts, Value>) -> Value { ports[keyPath: port] }

    /// The same graph (its token client too) with another browser: the one a command's
    /// options chose.
    public func with(browser: any BrowserLauncher) -> UseCaseGraph {
        var graph = self
        graph.ports.browser = browser
        return graph
    }

    /// The same graph (its token client too) on another keystore (a test's that interferes);
    /// the token client still reads registered client secrets from the first one.
    public func with(keystore: any Keystore) -> UseCaseGraph {
        var graph = self
        graph.ports.keystore = keystore
        return graph
    }

    // MARK: Accounts

    /// The keystore's own account store: the rules applied here (docs/accounts.md).
    public var localAccountStore: KeystoreAccountStore {
        KeystoreAccountStore(keystore: ports.keystore, clock: ports.clock, random: ports.random)
    }

    /// Each user's own backend (docs/firebase.md): the keystore's rules, or its Firebase project.
    public var accountStore: BackendAccountStore {
        let firebase = ports.firebase
        let keystore = ports.keystore
        let clock = ports.clock
        return BackendAccountStore(
            local: localAccountStore, keystore: keystore,
            firebase: { try firebase().map { FirebaseAccountStore(client: $0, keystore: keystore, clock: clock) } })
    }

    /// The sign-in flows (browser, manual, device code, ID token).
    public var credentialIssuer: any CredentialIssuing {
        CredentialIssuance(
            tokens: tokens, transport: ports.transport, clock: ports.clock, random: ports.random, browser: ports.browser,
            receivers: ports.redirectReceivers, events: ports.events)
    }

    /// The sign-ins applied to `accounts` here (docs/accounts.md).
    public func localAccountBackend(accounts: any CredentialAccountStore) -> LocalAccountBackend {
        LocalAccountBackend(
            accounts: accounts, configStore: ports.configStore, issuer: credentialIssuer, events: ports.events, prompt: ports.prompt)
    }

    /// Where `login`, `link` and `reauth` run, chosen once from config.json (docs/firebase.md): the
    /// Firebase project brokers them, or the keystore applies the rules here.
    public func accountBackend() throws -> any AccountBackend {
        guard let client = try ports.firebase() else { return localAccountBackend(accounts: accountStore) }
        let flow = BrokeredSignIn(
            clock: ports.clock, random: ports.random, browser: ports.browser, receivers: ports.redirectReceivers, events: ports.events)
        return FirebaseAccountBackend(FirebaseSignIn(client: client, keystore: ports.keystore, flow: flow, clock: ports.clock))
    }

    public func signIn() throws -> SignIn { SignIn(backend: try accountBackend()) }
    public func link() throws -> Link { Link(backend: try accountBackend()) }
    public func reauthenticate() throws -> Reauthenticate { Reauthenticate(backend: try accountBackend()) }

    public var unlink: Unlink { Unlink(accounts: accountStore, revocation: tokenRevocation) }
    public var deleteUser: DeleteUser { DeleteUser(accounts: accountStore, revocation: tokenRevocation) }
    public var signOut: SignOut { SignOut(accounts: accountStore, revocation: tokenRevocation) }
    public var sessionCheck: SessionCheck { SessionCheck(configStore: ports.configStore, tokens: tokens, transport: ports.transport) }

    public var userPhoto: UserPhoto {
        UserPhoto(keystore: ports.keystore, configStore: ports.configStore, transport: ports.transport, tokens: tokenRefresh)
    }

    // MARK: Tokens

    public var tokenRefresh: TokenRefresh {
        var refresh = TokenRefresh(
            keystore: ports.keystore, configStore: ports.configStore, tokens: tokens, transport: ports.transport, clock: ports.clock)
        refresh.firebaseEmulatorHost = ports.firebaseEmulatorHost
        return refresh
    }

    /// `token --exchange` (RFC 8693), through the one token client.
    public var tokenExchange: TokenExchange {
        TokenExchange(
            keystore: ports.keystore, configStore: ports.configStore, tokens: tokens, refresh: tokenRefresh, secrets: ports.secrets,
            clock: ports.clock)
    }

    public var tokenRevocation: TokenRevocation { TokenRevocation(configStore: ports.configStore, tokens: tokens) }

    public var gitCredential: GitCredential { GitCredential(keystore: ports.keystore, tokens: tokenRefresh) }

    public func exec(runner: any ChildProcessRunner) -> Exec {
        Exec(tokens: tokenRefresh, clock: ports.clock, random: ports.random, events: ports.events, runner: runner)
    }

    // MARK: Cloud

    /// `aws-credentials`: STS through the transport.
    public var awsRoleCredentials: AWSRoleCredentials {
        AWSRoleCredentials(
            keystore: ports.keystore, refresh: tokenRefresh, exchange: tokenExchange, transport: ports.transport, clock: ports.clock)
    }

    /// `gcp-token`: the ID token, or an exchanged one.
    public var gcpSubjectToken: GCPSubjectToken { GCPSubjectToken(refresh: tokenRefresh, exchange: tokenExchange) }

    /// `kubeconfig set-credentials`.
    public var kubeconfigSetup: KubeconfigSetup { KubeconfigSetup(random: ports.random, clock: ports.clock) }

    public var workloadSignIn: WorkloadSignIn {
        WorkloadSignIn(
            keystore: ports.keystore, configStore: ports.configStore, grant: WorkloadGrant(tokens: tokens, clock: ports.clock),
            clock: ports.clock, random: ports.random)
    }

    // MARK: Resources (docs/resources.md): `login URL`, `token --resource`, `request`

    public var registrationSecrets: KeystoreRegistrationSecrets {
        KeystoreRegistrationSecrets(keystore: ports.keystore, legacyPath: ports.registrationSecretsPath)
    }

    public var resourceTokens: ResourceTokens {
        ResourceTokens(keystore: ports.keystore, configStore: ports.configStore, tokens: tokens, clock: ports.clock, chain: resourceChain)
    }

    /// `login URL --via` (identity chaining): the exchange at the identity's provider, the
    /// JWT-bearer grant at the resource's authorization server.
    public var resourceChain: ResourceChain {
        ResourceChain(
            transport: ports.transport, configStore: ports.configStore, tokens: tokens, exchange: tokenExchange, keystore: ports.keystore,
            clock: ports.clock, random: ports.random, secrets: registrationSecrets, prompt: ports.prompt,
            freePort: { [receivers = ports.redirectReceivers] in receivers.freePort(preferring: $0) })
    }

    public var resourceRequest: ResourceRequest {
        ResourceRequest(tokens: resourceTokens, transport: ports.transport, random: ports.random, clock: ports.clock)
    }

    public var resourceSignIn: ResourceSignIn {
        ResourceSignIn(
            transport: ports.transport, configStore: ports.configStore, issuer: credentialIssuer, accounts: localAccountStore,
            clock: ports.clock, secrets: registrationSecrets, prompt: ports.prompt,
            freePort: { [receivers = ports.redirectReceivers] in receivers.freePort(preferring: $0) })
    }

    public var resourceWorkloadSignIn: ResourceWorkloadSignIn {
        ResourceWorkloadSignIn(
            transport: ports.transport, configStore: ports.configStore, tokens: tokens, keystore: ports.keystore, clock: ports.clock,
            random: ports.random, secrets: registrationSecrets)
    }
}
