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
    /// Which identity a command uses where (docs/identities.md), in order: the first that
    /// matches wins. Absent: the current user, as before rules existed.
    public var rules: [IdentityRule]?

    public init(providers: [String: ProviderConfig] = [:]) {
        version = Self.currentVersion
        self.providers = providers
    }
}
