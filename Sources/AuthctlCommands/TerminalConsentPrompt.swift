import AuthCore

/// The person at the terminal, asked in words (docs/configuration.md).
struct TerminalConsentPrompt: ConsentPrompt {
    let terminal: any Terminal

    init(_ terminal: any Terminal) { self.terminal = terminal }

    var canAsk: Bool { terminal.isInteractive }

    func agreesToLink(_ providerID: String, to user: User, reason: String) -> Bool {
        terminal.confirm(Self.question(linking: providerID, to: user, reason: reason))
    }

    func agreesToLend(_ lending: BorrowedProvider) -> Bool {
        terminal.confirm(Self.question(lending: lending))
    }

    /// docs/resources.md: the provider, its server, the resource and the scopes, each made visible-safe.
    static func question(lending: BorrowedProvider) -> String {
        let scopes =
            lending.scopes.isEmpty
            ? "no scope" : "the scopes \(lending.scopes.map { Sanitize.text($0, limit: 100) }.joined(separator: " "))"
        return
            "The resource \(Sanitize.text(lending.resource, limit: 200)) signs in at \(Sanitize.text(lending.issuer, limit: 200)), for which you configured the provider \(lending.providerID). Use \(lending.providerID) to get it a token with \(scopes)? The resource could use that token wherever your \(lending.providerID) account's tokens are accepted."
    }

    static func question(linking providerID: String, to user: User, reason: String) -> String {
        "Link \(providerID) to \(user.email ?? user.uid)? Note: \(reason)."
    }
}
