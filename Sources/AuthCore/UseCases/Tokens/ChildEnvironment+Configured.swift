extension ChildEnvironment {
    /// The variables that providers and workloads are configured to read a secret from:
    /// each provider's client secret (`providers add --client-secret-env VAR`), each
    /// workload's client secret and federated token (`login --client-credentials
    /// --client-secret-env VAR`, `--federated-token-env VAR`).
    public static func configuredSecrets(providers: [ProviderConfig], accounts: AccountState?) -> Set<String> {
        var names = Set(providers.compactMap(\.clientSecretEnv))
        for user in accounts?.users ?? [] {
            for identity in user.providerData {
                switch identity.workload?.authentication {
                case .secretEnvironment(let name), .federatedTokenEnvironment(let name): names.insert(name)
                default: break
                }
            }
        }
        return names
    }
}
