extension ConfigStore {
    /// The configuration a workload signs in with: the configured provider, or for
    /// `microsoft.com` the defaults (`login.microsoftonline.com`, Graph) when it was never
    /// added — a workload names its tenant and client id on the command line, as `az login
    /// --service-principal` does. An `oidc.*` provider needs its issuer configured.
    public func workloadProvider(_ id: ProviderID) throws -> ProviderConfig {
        if case .microsoft = id.kind, try load().providers[id.rawValue] == nil { return ProviderConfig(id: id.rawValue) }
        return try provider(id)
    }
}
