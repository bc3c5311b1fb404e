/// A person asked before a change that needs consent (SPEC §4: linking a private-relay
/// identity). SPEC §8: nobody is asked without a terminal. The command layer words the
/// question (`TerminalConsentPrompt`).
public protocol ConsentPrompt: Sendable {
    /// True when a person can be asked (stdin and stderr are a terminal).
    var canAsk: Bool { get }
    /// Whether the person agrees to link `providerID` to `user`, which needs consent for
    /// `reason` (`AccountRules.consentReason`): true only for a yes. Only called when `canAsk`.
    func agreesToLink(_ providerID: String, to user: User, reason: String) -> Bool
}
