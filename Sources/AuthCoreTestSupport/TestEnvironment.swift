import AuthCore
import Foundation

/// The ports wired to fakes the way the executable wires the real things: the real
/// transport against the in-process provider, an in-memory keystore, the configuration in
/// memory, a fresh temporary directory for the files a test writes beside it.
public struct TestEnvironment: Sendable {
    public let transport: any HTTPTransport
    public let clock: any Clock
    public let random: any RandomSource
    public let browser: any BrowserLauncher
    public let configStore: ConfigStore
    public let metadataCache: any MetadataCache
    public let secrets: any SecretSource
    public let keystore: InMemoryKeystore
    public let terminal: RecordingTerminal
    /// What the use cases built by `signIn()`, `link()`… report.
    public let events = RecordingEvents()
    public let directory: String
    /// The object graph the executable builds (`UseCaseGraph`), on these fakes: one token
    /// client for the whole environment, as for one command.
    public let graph: UseCaseGraph
    /// Removes the directory (and the files written beside it) when the last copy of this
    /// environment goes, so that the suite leaves nothing in $TMPDIR.
    private let cleanup: TemporaryFiles

    public init(
        provider: FakeIdentityProvider, providerID: String = "oidc.fake", browser: any BrowserLauncher = FollowingBrowser(),
        keystore: InMemoryKeystore = InMemoryKeystore(), clock: any Clock = SystemClock(),
        clientSecretEnv: String? = nil, secrets: [String: String] = [:], terminal: RecordingTerminal = RecordingTerminal()
    ) async throws {
        try await self.init(
            config: ProviderConfig(id: providerID, clientID: provider.clientID, clientSecretEnv: clientSecretEnv, issuer: provider.issuer),
            browser: browser, keystore: keystore, clock: clock, secrets: secrets, terminal: terminal)
    }

    /// `microsoft.com` configured against the fake Microsoft (authority and Graph on it).
    public init(
        microsoft: FakeMicrosoft, tenant: String? = nil, browser: any BrowserLauncher = FollowingBrowser(),
        keystore: InMemoryKeystore = InMemoryKeystore(), clock: any Clock = SystemClock(), terminal: RecordingTerminal = RecordingTerminal()
    ) async throws {
        try await self.init(
            config: ProviderConfig(
                id: "microsoft.com", clientID: microsoft.clientID, tenant: tenant, authorityHost: microsoft.host, graphHost: microsoft.host),
            browser: browser, keystore: keystore, clock: clock, terminal: terminal)
    }

    /// `apple.com` configured against the fake Apple, its `.p8` key written (0600) beside
    /// the configuration.
    public init(
        apple: FakeApple, keyFileMode: mode_t = 0o600, redirectURI: String? = nil, listenAddress: String? = nil,
        browser: any BrowserLauncher = FollowingBrowser(), keystore: InMemoryKeystore = InMemoryKeystore(),
        clock: any Clock = SystemClock(), terminal: RecordingTerminal = RecordingTerminal()
    ) async throws {
        let keyFile = NSTemporaryDirectory() + "AuthKey_\(apple.keyID)-\(UUID().uuidString).p8"
        _ = FileManager.default.createFile(
            atPath: keyFile, contents: Data(apple.privateKeyPEM.utf8), attributes: [.posixPermissions: keyFileMode])
        do {
            try await self.init(
                config: ProviderConfig(
                    id: "apple.com", clientID: apple.clientID, redirectURI: redirectURI, listenAddress: listenAddress,
                    issuer: apple.issuer, teamID: apple.teamID, keyID: apple.keyID, privateKeyFile: keyFile),
                browser: browser, keystore: keystore, clock: clock, terminal: terminal)
        } catch {
            try? FileManager.default.removeItem(atPath: keyFile)
            throw error
        }
        cleanup.add(keyFile)
    }

    /// Any one provider configuration.
    public init(
        config: ProviderConfig, browser: any BrowserLauncher = FollowingBrowser(), keystore: InMemoryKeystore = InMemoryKeystore(),
        clock: any Clock = SystemClock(), secrets: [String: String] = [:], terminal: RecordingTerminal = RecordingTerminal()
    ) async throws {
        directory = NSTemporaryDirectory() + "authctl-test-\(UUID().uuidString)"
        cleanup = TemporaryFiles(directory)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.keystore = keystore
        self.terminal = terminal
        let configStore = ConfigStore(storage: InMemoryConfigStorage(path: directory + "/config.json"))
        try await configStore.update { file in file.providers[config.id] = config }
        self.configStore = configStore
        let transport = InMemoryNetwork()
        self.transport = transport
        self.clock = clock
        let random = SystemRandomSource()
        self.random = random
        self.browser = browser
        metadataCache = NoMetadataCache()
        self.secrets = StaticSecrets(secrets)
        graph = UseCaseGraph(
            UseCasePorts(
                transport: transport, clock: clock, random: random, browser: browser, keystore: keystore, configStore: configStore,
                metadataCache: metadataCache, secrets: self.secrets, events: TestEventRouting(signIn: terminal, others: events),
                // The loopback listener, or the recording terminal for `--manual`.
                redirectReceivers: SystemRedirectReceivers(clock: clock, random: random, peers: ProcNetTCPPeerLookup()) {
                    await terminal.readInput(prompt: RecordingTerminal.pastePrompt)
                },
                prompt: terminal, registrationSecretsPath: directory + "/registrations.json"))
    }

    /// The sign-in flows (browser, manual, device code, ID token) on these fakes: the
    /// loopback listener, or the recording terminal for `--manual`; events to the terminal.
    public var credentialIssuer: any CredentialIssuing { graph.credentialIssuer }

    /// The token client on these fakes: the graph's one.
    public var tokens: TokenClient { graph.tokens }
}

/// The sign-in flows' events to the recording terminal (what a person sees), the use
/// cases' own to `TestEnvironment.events`.
struct TestEventRouting: AuthEventSink {
    let signIn: any AuthEventSink
    let others: any AuthEventSink

    func report(_ event: AuthEvent) {
        if case .signIn = event { signIn.report(event) } else { others.report(event) }
    }
}

/// Paths removed when the object goes (the last copy of the environment that holds it).
final class TemporaryFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [String]

    init(_ path: String) { paths = [path] }

    func add(_ path: String) { lock.withLock { paths.append(path) } }

    deinit { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
}
