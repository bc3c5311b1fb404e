/// A person asked before a change that needs consent (docs/apple.md: linking a private-relay
/// identity). docs/getting-started.md: nobody is asked without a terminal. The command layer words the
/// question (`TerminalConsentPrompt`).
public protocol ConsentPrompt: Sendable {
    /// True when a person can be asked (stdin and stderr are a terminal).
    var canAsk: Bool { get }
    /// Whether the person agrees to link `providerID` to `user`, which needs consent for
    /// `reason` (`AccountRules.consentReason`): true only for a yes. Only called when `canAsk`.
    func agreesToLink(_ providerID: String, to user: User, reason: String) -> Bool
}
