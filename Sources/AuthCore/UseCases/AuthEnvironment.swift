/// What the sign-in flows behind `CredentialIssuing` (browser, manual, device code, ID
/// token) still take as one value; the use cases take their own ports instead.
public struct AuthEnvironment: Sendable {
    public var transport: any HTTPTransport
    public var clock: any Clock
    public var random: any RandomSource
    public var browser: any BrowserLauncher
    public var terminal: any Terminal
    public var keystore: any Keystore
    public var configStore: ConfigStore
    public var metadataCache: any MetadataCache
    public var secrets: any SecretSource
    /// Where a sign-in reports its progress (the executable renders it on stderr).
    public var signInEvents: any SignInEvents
    /// The redirect receivers of a sign-in; nil: the loopback listener, or the terminal for `--manual`.
    public var redirectReceivers: (any RedirectReceivers)?
    /// `FIREBASE_AUTH_EMULATOR_HOST` as the environment gave it (checked where it is used).
    public var firebaseEmulatorHost: String?

    public init(
        transport: any HTTPTransport, clock: any Clock, random: any RandomSource, browser: any BrowserLauncher,
        terminal: any Terminal, keystore: any Keystore, configStore: ConfigStore,
        metadataCache: any MetadataCache, secrets: any SecretSource, signInEvents: any SignInEvents = DiscardedSignInEvents(),
        redirectReceivers: (any RedirectReceivers)? = nil
    ) {
        self.signInEvents = signInEvents
        self.redirectReceivers = redirectReceivers
        self.transport = transport
        self.clock = clock
        self.random = random
        self.browser = browser
        self.terminal = terminal
        self.keystore = keystore
        self.configStore = configStore
        self.metadataCache = metadataCache
        self.secrets = secrets
    }
}
