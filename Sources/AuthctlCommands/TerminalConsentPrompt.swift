import AuthCore

/// The person at the terminal, asked in words (docs/configuration.md).
struct TerminalConsentPrompt: ConsentPrompt {
    let terminal: any Terminal

    init(_ terminal: any Terminal) { self.terminal = terminal }

    var canAsk: Bool { terminal.isInteractive }

    func agreesToLink(_ providerID: String, to user: User, reason: String) -> Bool {
        terminal.confirm(Self.question(linking: providerID, to: user, reason: reason))
    }

    static func question(linking providerID: String, to user: User, reason: String) -> String {
        "Link \(providerID) to \(user.email ?? user.uid)? Note: \(reason)."
    }
}
