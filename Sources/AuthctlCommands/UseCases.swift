import AuthCore

/// The real implementations `Wiring.useCases` chose for one command, and the use cases built
/// from them, each given the ports it declares. It lives in the command layer: the core has
/// no bag of ports, every use case takes its own.
struct UseCases {
    let transport: any HTTPTransport
    let clock: any Clock
    let random: any RandomSource
    let browser: any BrowserLauncher
    let terminal: StderrTerminal
    let keystore: any Keystore
    let configStore: ConfigStore
    let metadataCache: any MetadataCache
    let secrets: any SecretSource
    /// Where the use cases and the sign-ins report their events: their words on stderr.
    let events: any AuthEventSink
    /// The loopback listener, or the terminal for `--manual`.
    let redirectReceivers: any RedirectReceivers
    /// `FIREBASE_AUTH_EMULATOR_HOST` as the environment gave it (parsed where a Firebase
    /// client is made, `Wiring.firebaseEmulator`).
    let firebaseEmulatorHost: String?
    /// The Firebase project's client when config.json's backend is Firebase; nil: local.
    let firebase: @Sendable () throws -> FirebaseAuthClient?
    /// Where dynamically registered clients' registration access tokens are kept
    /// (docs/resources.md): a private file beside the keystore.
    var registrationSecretsPath = ""

    /// Each user's own backend (docs/firebase.md): the keystore's rules, or its Firebase project.
    var accountStore: BackendAccountStore {
        let firebase = self.firebase
        let keystore = self.keystore
        let clock = self.clock
        return BackendAccountStore(
            local: KeystoreAccountStore(keystore: keystore, clock: clock, random: random), keystore: keystore,
            firebase: { try firebase().map { FirebaseAccountStore(client: $0, keystore: keystore, clock: clock) } })
    }

    /// The one client of the providers' token endpoints: every grant, revocation and
    /// introspection of this command goes through it.
    var tokens: TokenClient {
        TokenClient(transport: transport, clock: clock, random: random, metadataCache: metadataCache, secrets: secrets)
    }

    /// The sign-in flows (browser, manual, device code, ID token).
    var credentialIssuer: any CredentialIssuing {
        CredentialIssuance(
            tokens: tokens, transport: transport, clock: clock, random: random, browser: browser, receivers: redirectReceivers,
            events: events)
    }

    /// Where `login`, `link` and `reauth` run, chosen once from config.json (docs/firebase.md): the
    /// Firebase project brokers them, or the keystore applies the rules here.
    func accountBackend() throws -> any AccountBackend {
        guard let client = try firebase() else {
            return LocalAccountBackend(
                accounts: accountStore, configStore: configStore, issuer: credentialIssuer, events: events,
                prompt: TerminalConsentPrompt(terminal))
        }
        let flow = BrokeredSignIn(clock: clock, random: random, browser: browser, receivers: redirectReceivers, events: events)
        return FirebaseAccountBackend(FirebaseSignIn(client: client, keystore: keystore, flow: flow, clock: clock))
    }

    func signIn() throws -> SignIn { SignIn(backend: try accountBackend()) }
    func link() throws -> Link { Link(backend: try accountBackend()) }
    func reauthenticate() throws -> Reauthenticate { Reauthenticate(backend: try accountBackend()) }

    var tokenRefresh: TokenRefresh {
        var refresh = TokenRefresh(keystore: keystore, configStore: configStore, tokens: tokens, transport: transport, clock: clock)
        refresh.firebaseEmulatorHost = firebaseEmulatorHost
        return refresh
    }

    /// `token --exchange` (RFC 8693), through the one token client.
    var tokenExchange: TokenExchange {
        TokenExchange(keystore: keystore, configStore: configStore, tokens: tokens, refresh: tokenRefresh, secrets: secrets, clock: clock)
    }

    /// `aws-credentials`: STS through the transport.
    var awsRoleCredentials: AWSRoleCredentials {
        AWSRoleCredentials(keystore: keystore, refresh: tokenRefresh, exchange: tokenExchange, transport: transport, clock: clock)
    }

    /// `gcp-token`: the ID token, or an exchanged one.
    var gcpSubjectToken: GCPSubjectToken { GCPSubjectToken(refresh: tokenRefresh, exchange: tokenExchange) }

    var tokenRevocation: TokenRevocation {
        TokenRevocation(configStore: configStore, tokens: tokens)
    }

    var workloadSignIn: WorkloadSignIn {
        WorkloadSignIn(
            keystore: keystore, configStore: configStore,
            grant: WorkloadGrant(tokens: tokens, clock: clock),
            clock: clock, random: random)
    }

    var unlink: Unlink { Unlink(accounts: accountStore, revocation: tokenRevocation) }
    var deleteUser: DeleteUser { DeleteUser(accounts: accountStore, revocation: tokenRevocation) }
    var signOut: SignOut { SignOut(accounts: accountStore, revocation: tokenRevocation) }
    var userPhoto: UserPhoto { UserPhoto(keystore: keystore, configStore: configStore, transport: transport, tokens: tokenRefresh) }
    var gitCredential: GitCredential { GitCredential(keystore: keystore, tokens: tokenRefresh) }
    var sessionCheck: SessionCheck { SessionCheck(configStore: configStore, tokens: tokens, transport: transport) }

    func exec(runner: any ChildProcessRunner) -> Exec {
        Exec(tokens: tokenRefresh, clock: clock, random: random, events: events, runner: runner)
    }
}
