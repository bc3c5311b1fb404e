/// Where the command layer shows a person progress, notices and `-v` lines, and asks its
/// questions (stderr and stdin in the executable, `StderrTerminal`). The core prints nothing:
/// it reports events (`EventText` words them here) and returns results.
protocol Terminal: Sendable {
    /// True when a person is at a terminal (stdin and stderr are TTYs).
    var isInteractive: Bool { get }
    /// One progress line (stderr). Suppressed by `--quiet`.
    func progress(_ line: String)
    /// A line that must be shown even with `--quiet` (the authorization URL when no
    /// browser could be opened, warnings).
    func notice(_ line: String)
    /// A diagnostic line shown with `--verbose` only (HTTP exchanges, redacted).
    func debug(_ line: String)
    /// Asks a yes/no question and returns the answer; false (no) unless a person answers
    /// yes. Only called when `isInteractive` (docs/getting-started.md: never ask without a terminal).
    func confirm(_ question: String) -> Bool
    /// One line a person types or pastes (stdin), after showing `prompt`; nil at the end
    /// of input. Only for input the command documents (`--manual`).
    func readInput(prompt: String) async -> String?
}

extension Terminal {
    func confirm(_ question: String) -> Bool { false }
    func readInput(prompt: String) async -> String? { nil }
}
