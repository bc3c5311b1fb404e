import AuthCore
import Foundation

/// An `AuthEnvironment` wired to fakes the way the executable wires the real things:
/// the real transport against the in-process provider, an in-memory keystore, a
/// configuration file in a fresh temporary directory.
public struct TestEnvironment: Sendable {
    public let environment: AuthEnvironment
    public let keystore: InMemoryKeystore
    public let terminal: RecordingTerminal
    public let directory: String

    public init(
        provider: FakeIdentityProvider, providerID: String = "oidc.fake", browser: any BrowserLauncher = FollowingBrowser(),
        keystore: InMemoryKeystore = InMemoryKeystore(), clock: any Clock = SystemClock(),
        clientSecretEnv: String? = nil, secrets: [String: String] = [:], terminal: RecordingTerminal = RecordingTerminal()
    ) async throws {
        directory = NSTemporaryDirectory() + "authctl-test-\(UUID().uuidString)"
        self.keystore = keystore
        self.terminal = terminal
        let configStore = ConfigStore(path: directory + "/config.json", random: SystemRandomSource())
        try await configStore.update { file in
            file.providers[providerID] = ProviderConfig(
                id: providerID, clientID: provider.clientID, clientSecretEnv: clientSecretEnv, issuer: provider.issuer)
        }
        environment = AuthEnvironment(
            transport: URLSessionTransport(timeout: 10), clock: clock, random: SystemRandomSource(), browser: browser,
            terminal: terminal, keystore: keystore, configStore: configStore, metadataCache: NoMetadataCache(),
            secrets: StaticSecrets(secrets))
    }
}
