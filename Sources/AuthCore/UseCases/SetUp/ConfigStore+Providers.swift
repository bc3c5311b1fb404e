extension ConfigStore {
    /// The configured provider for an id.
    func identityProvider(_ id: ProviderID) throws -> any IdentityProvider {
        try ProviderRegistry.provider(for: provider(id))
    }

    /// The configured provider for one sign-in, with the flow's overrides of its
    /// configuration (`--tenant`), checked like `providers add` checks them.
    func identityProvider(_ id: ProviderID, for options: FlowOptions) throws -> any IdentityProvider {
        var config = try provider(id)
        if let tenant = options.tenant {
            config.tenant = tenant
            try config.validate()
        }
        return try ProviderRegistry.provider(for: config)
    }
}
