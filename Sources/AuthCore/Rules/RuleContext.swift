/// Where a command runs, as the rules of config.json look at it (docs/identities.md): each
/// fact is asked only when a rule's condition needs it, and at most once a command
/// (`IdentityRules` keeps the answers). `SystemRuleContext` reads the process's working
/// directory, its git repository's remotes, kubectl's current context and the environment;
/// `git-credential` gives the URL git asks for as the one remote; tests give fixed values.
public protocol RuleContext {
    /// The working directory with every symbolic link resolved; nil when it cannot be known.
    func workingDirectory() -> String?
    /// `path` with every symbolic link resolved, nil when it does not exist.
    func realPath(_ path: String) -> String?
    /// The home directory, for `~` in a rule's directory.
    func homeDirectory() -> String?
    /// The remote URLs of the git repository around the working directory (every remote's
    /// `url`), or the one URL git asks a credential for.
    func gitRemotes() -> [String]
    /// kubectl's current context (`KUBECONFIG`, else `~/.kube/config`), nil without one.
    func kubeContext() -> String?
    /// An environment variable.
    func variable(_ name: String) -> String?
}
