#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Everything a use case needs from the outside world, wired in one place: the
/// executable's `Wiring` builds the real one, tests build one from fakes.
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

    /// The configured provider for an id.
    func provider(_ id: ProviderID) throws -> any IdentityProvider {
        try ProviderRegistry.provider(for: configStore.provider(id))
    }

    /// The configured provider for one sign-in, with the flow's overrides of its
    /// configuration (`--tenant`), checked like `providers add` checks them.
    func provider(_ id: ProviderID, for options: FlowOptions) throws -> any IdentityProvider {
        var config = try configStore.provider(id)
        if let tenant = options.tenant {
            config.tenant = tenant
            try config.validate()
        }
        return try ProviderRegistry.provider(for: config)
    }

    /// A fresh uid (SPEC §1: random, URL-safe, at least 20 characters): 21 bytes → 28 characters.
    func mintUID() -> String { random.base64URL(bytes: 21) }
}
