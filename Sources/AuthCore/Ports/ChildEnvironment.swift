/// The environment of a program authctl starts (`exec`'s command, the browser): authctl's
/// own without the variables that hold or unlock a secret. A child gets the token authctl
/// hands it, never what authctl reads to get one. Every spawn takes one of these (`Spawn`,
/// `DetachedProcess`, `SystemChildProcessRunner`), and only `init(scrubbing:…)` makes one.
public struct ChildEnvironment: Sendable, Equatable {
    /// Removed from every child's environment, whatever the configuration says:
    /// - `AUTHCTL_KEYSTORE_PASSPHRASE`: the keystore's passphrase;
    /// - `AUTHCTL_KEYSTORE_KEY_FILE`: where the keystore's key is, with which any program
    ///   could open every session in the keystore, not only use the one token it is given;
    /// - `ACTIONS_ID_TOKEN_REQUEST_TOKEN`: GitHub Actions' bearer token that asks for the
    ///   job's OIDC tokens (`--federated-token github-actions`);
    /// - `AUTHCTL_TOKEN`, `AUTHCTL_TOKEN_FILE`: the token (and its file) of an `authctl exec`
    ///   that runs this authctl; `exec` sets its own for its command.
    public static let secretVariables: Set<String> = [
        "AUTHCTL_KEYSTORE_PASSPHRASE", "AUTHCTL_KEYSTORE_KEY_FILE", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "AUTHCTL_TOKEN",
        "AUTHCTL_TOKEN_FILE",
    ]

    /// The variables, as the child gets them.
    public private(set) var variables: [String: String]

    /// `environment` without `secretVariables` and without `configured`: the variables the
    /// configuration reads secrets from (`configuredSecrets`).
    public init(scrubbing environment: [String: String], configured: Set<String> = []) {
        variables = environment.filter { !Self.secretVariables.contains($0.key) && !configured.contains($0.key) }
    }

    /// A variable authctl itself gives the child (`exec`'s `AUTHCTL_TOKEN`).
    public mutating func set(_ name: String, to value: String) { variables[name] = value }

    /// `NAME=value` strings, for `posix_spawn`.
    var entries: [String] { variables.map { "\($0.key)=\($0.value)" } }

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
