/// `providers add|list|show|remove`: the configuration file.
public struct Providers: Sendable {
    let configStore: ConfigStore

    public init(configStore: ConfigStore) { self.configStore = configStore }

    /// Registers or updates a provider: options given replace the stored ones, others stay.
    /// - Parameters:
    ///   - check: what the caller can check beyond the values once they are valid (that a
    ///     secret file exists and is private), before anything is written.
    ///   - discovery: when given, the provider's discovery document is fetched and checked
    ///     as a sign-in checks it, before anything is written (nil: an offline set-up).
    public func add(
        _ id: ProviderID, merge: (inout ProviderConfig) -> Void, check: (ProviderConfig) throws -> Void = { _ in },
        discovery: DiscoveryCheck? = nil
    ) async throws -> ProviderConfig {
        if let discovery {
            // The entry as it will be (read as `update` reads), checked outside the lock: the
            // network may take its time, and a provider that fails the check is not saved.
            var candidate = (try? configStore.read(lenient: true))?.providers[id.rawValue] ?? ProviderConfig(id: id.rawValue)
            merge(&candidate)
            try candidate.validate()
            try candidate.checkComplete()
            try check(candidate)
            do {
                _ = try await discovery.run(ProviderRegistry.provider(for: candidate))
            } catch let error as AuthError where error.code == .networkRequestFailed {
                // The command as given (what is not saved yet), with --no-check: it works as written.
                var arguments: [Message.Argument] = ["\(id)"]
                if let issuer = candidate.issuer { arguments.append(.input(.issuer, issuer)) }
                if let clientID = candidate.clientID { arguments.append(.input(.clientID, clientID)) }
                if let tenant = candidate.tenant { arguments.append(.input(.tenant, tenant)) }
                arguments.append(.input(.noCheck, nil))
                throw error.reworded {
                    "\($0). To save \(id) without this check (an offline set-up): \(command: .providersAdd, arguments: arguments)"
                }
            }
        }
        var saved = ProviderConfig(id: id.rawValue)
        try await configStore.update { file in
            var config = file.providers[id.rawValue] ?? ProviderConfig(id: id.rawValue)
            merge(&config)
            try config.validate()
            try config.checkComplete()
            try check(config)
            _ = try ProviderRegistry.provider(for: config)
            file.providers[id.rawValue] = config
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
        // Read leniently (`update`): removing is the way out of a damaged entry.
        try await configStore.update { file in
            guard file.providers.removeValue(forKey: id.rawValue) != nil else {
                throw AuthError.notConfigured("the provider \(id) is not configured. List the configured ones: \(command: .providersList)")
            }
        }
    }

    /// After `providers remove` of a client `login URL` saved (`ProviderConfig.savedForResources`):
    /// the resource grants obtained with it go too, from every user — without their client they
    /// can be neither refreshed nor revoked (docs/resources.md). Returns how many were removed.
    public static func removeResourceGrants(of id: ProviderID, from keystore: any Keystore) async throws -> Int {
        try await keystore.update { state in
            var removed = 0
            for index in state.users.indices {
                let before = state.users[index].resourceGrants.count
                state.users[index].resourceGrants.removeAll { $0.providerID == id.rawValue }
                removed += before - state.users[index].resourceGrants.count
            }
            return removed
        }
    }
}
