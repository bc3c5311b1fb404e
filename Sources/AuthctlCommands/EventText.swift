import AuthCore

/// The words of the core's events, on stderr: a warning is a notice (shown even with `--quiet`).
struct TerminalEvents: AuthEventSink {
    let terminal: any Terminal

    func report(_ event: AuthEvent) {
        terminal.notice(Self.text(of: event))
    }

    static func text(of event: AuthEvent) -> String {
        switch event {
        case .profileIncomplete(let warning):
            return "authctl: \(text(of: warning)); the ID token's name and email are kept"
        case .runningCommandRefreshFailed(let error):
            return "authctl: could not refresh the token for the running command: \(MessageSpelling.words(error.message))"
        case .refreshFailedTokenStillValid(let providerID, let seconds, let error):
            return
                "authctl: warning: could not refresh the \(providerID) token early (\(error.message.firstSentence)); using the current one, still valid for \(seconds) s"
        }
    }

    static func text(of warning: ProfileWarning) -> String {
        switch warning {
        case .graphRefused(let endpoint, let status, let errorCode):
            return "could not read the Microsoft Graph profile at \(endpoint) (HTTP \(status)\(errorCode.map { ", \($0)" } ?? ""))"
        case .graphUnreachable(let endpoint):
            return "could not read the Microsoft Graph profile at \(endpoint)"
        }
    }
}
