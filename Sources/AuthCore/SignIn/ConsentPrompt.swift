/// A person asked a yes/no question before a change that needs consent (SPEC §4: linking a
/// private-relay identity). SPEC §8: nobody is asked without a terminal.
public protocol ConsentPrompt: Sendable {
    /// True when a person can be asked (stdin and stderr are a terminal).
    var canAsk: Bool { get }
    /// The answer: true only when the person says yes. Only called when `canAsk`.
    func confirm(_ question: String) -> Bool
}

/// The person at the terminal.
public struct TerminalConsentPrompt: ConsentPrompt {
    let terminal: any Terminal

    public init(_ terminal: any Terminal) { self.terminal = terminal }

    public var canAsk: Bool { terminal.isInteractive }
    public func confirm(_ question: String) -> Bool { terminal.confirm(question) }
}
