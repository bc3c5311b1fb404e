/// The configuration file: every registered provider.
public struct ConfigFile: Codable, Sendable, Equatable {
    public static let currentVersion = 1
    public var version: Int
    public var providers: [String: ProviderConfig]
    /// Where users live (docs/firebase.md): absent or `local` — the keystore; `firebase` — the project
    /// of `firebase`.
    public var backend: String?
    /// The Firebase project of `backend use firebase`, kept when the backend goes back to local.
    public var firebase: FirebaseConfig?

    public init(providers: [String: ProviderConfig] = [:]) {
        version = Self.currentVersion
        self.providers = providers
    }
}
