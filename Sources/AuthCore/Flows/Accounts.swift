import Foundation

/// The read-only and local account commands: `status`, `users list|show|use`.
public struct Accounts: Sendable {
    let environment: AuthEnvironment

    public init(environment: AuthEnvironment) { self.environment = environment }

    /// `status`: the current user, or nil when nobody is signed in.
    public func currentUser() throws -> User? {
        try environment.keystore.read().currentUser
    }

    public func list() throws -> (users: [User], currentUID: String?) {
        let state = try environment.keystore.read()
        return (state.users, state.currentUID)
    }

    /// `users show [UID]` (the current user by default).
    public func show(uid: String?) throws -> User {
        let state = try environment.keystore.read()
        guard let uid = uid ?? state.currentUID else { throw AuthError.noCurrentUser }
        guard let user = state.users.first(where: { $0.uid == uid }) else {
            throw AuthError.invalidArgument("no user has the uid '\(Sanitize.text(uid, limit: 64))'. List them with: authctl users list")
        }
        return user
    }

    /// `users use UID`.
    public func use(uid: String) async throws -> User {
        try await environment.keystore.update { state in
            try AccountRules.use(&state, uid: uid)
            return state.currentUser!
        }
    }
}

/// `providers add|list|show|remove`: the configuration file.
public struct Providers: Sendable {
    let configStore: ConfigStore

    public init(configStore: ConfigStore) { self.configStore = configStore }

    /// Registers or updates a provider: options given replace the stored ones, others stay.
    public func add(_ change: ProviderConfig, merge: (inout ProviderConfig) -> Void) async throws -> ProviderConfig {
        var saved = change
        try await configStore.update { file in
            var config = file.providers[change.id] ?? ProviderConfig(id: change.id)
            merge(&config)
            try config.validate()
            _ = try ProviderRegistry.provider(for: config)
            file.providers[change.id] = config
            saved = config
        }
        return saved
    }

    public func list() throws -> [ProviderConfig] {
        try configStore.load().providers.values.sorted { $0.id < $1.id }
    }

    public func show(_ id: ProviderID) throws -> ProviderConfig {
        try configStore.provider(id)
    }

    public func remove(_ id: ProviderID) async throws {
        _ = try configStore.provider(id)
        try await configStore.update { file in file.providers[id.rawValue] = nil }
    }
}
