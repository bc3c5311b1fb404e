extension ConfigStore {
    /// The configuration a workload signs in with: the configured provider, or the
    /// provider's defaults when it was never added and its kind allows it
    /// (`WorkloadRules.signsInWorkloadsUnconfigured`, Microsoft) — a workload names its tenant
    /// and client id on the command line, as `az login --service-principal` does. An `oidc.*`
    /// provider needs its issuer configured.
    public func workloadProvider(_ id: ProviderID) throws -> ProviderConfig {
        if ProviderRegistry.kind(of: id).signsInWorkloadsUnconfigured, try load().providers[id.rawValue] == nil {
            return ProviderConfig(id: id.rawValue)
        }
        return try provider(id)
    }
}
