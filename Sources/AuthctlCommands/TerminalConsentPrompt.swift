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

    func agreesToMove(_ move: ServerMove) -> Bool {
        terminal.confirm(Self.question(moving: move))
    }

    /// docs/resources.md: the resource, the grant's server and the new one, each made visible-safe.
    static func question(moving move: ServerMove) -> String {
        "The resource \(Sanitize.text(move.resource, limit: 200)) now names the authorization server \(Sanitize.text(move.to, limit: 200)) instead of \(Sanitize.text(move.from, limit: 200)), which issued your token for it. Sign in at \(Sanitize.text(move.to, limit: 200)) for it? Your grant from the old server is kept until the new sign-in succeeds."
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
