import AuthCore

/// The core's events as the lines a person reads on stderr: warnings and what must be acted
/// on are notices (shown with `--quiet` too), a sign-in's progress is progress lines.
struct EventText: AuthEventSink {
    let terminal: any Terminal
    /// This machine's name, said with a device code (where the sign-in was started).
    var hostName: String? = nil

    func report(_ event: AuthEvent) {
        guard case .signIn(let event) = event else { return terminal.notice(Self.text(of: event)) }
        switch Self.line(event, interactive: terminal.isInteractive, hostName: hostName) {
        case .notice(let text): terminal.notice(text)
        case .progress(let text): terminal.progress(text)
        }
    }

    static func text(of event: AuthEvent) -> String {
        switch event {
        case .signIn(let event):
            switch line(event, interactive: false) {
            case .notice(let text), .progress(let text): return text
            }
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

    enum Line: Equatable {
        case notice(String)
        case progress(String)
    }

    static func line(_ event: SignInEvent, interactive: Bool, hostName: String? = nil) -> Line {
        let cancel = interactive ? "; press Ctrl-C to cancel" : ""
        switch event {
        case .implicitFlow(let provider):
            return .notice(
                "authctl: warning: \(provider) uses the implicit flow (--flow implicit): the ID token travels through the browser, and no access or refresh token comes with it. The code flow with PKCE is safer: use it if the provider offers it"
            )
        case .browserOpened(let provider, let startURL):
            // A notice, shown with --quiet too: when the browser shows nothing, this line is
            // the only way in (the URL is one-time and served only to this user's processes).
            return .notice(
                "Opened the browser to sign in to \(provider). If no browser window appeared, open this URL (it works once):\n  \(startURL.absoluteString)"
            )
        case .browserEndedWithoutSignIn(let provider, let startURL):
            // A notice, as the first start URL's: without it the person has no way in.
            return .notice(
                "The browser command exited without finishing the sign-in to \(provider). If no sign-in page was shown, open this URL (it works once):\n  \(startURL.absoluteString)"
            )
        case .browserCommandFailed(let program, let status):
            guard let status else {
                return .notice(
                    "authctl: the browser command '\(Sanitize.text(program, limit: 80))' could not be started (not found, or not executable); open the URL below instead, and check --browser-command or AUTHCTL_BROWSER"
                )
            }
            return .notice(
                "authctl: the browser command '\(Sanitize.text(program, limit: 80))' failed (exit status \(status)); open the URL below instead"
            )
        case .openURL(let url, let provider):
            return .notice("Open this URL in a browser to sign in to \(provider):\n  \(url.absoluteString)")
        case .waitingForRedirect(let host, let port, _, let timeout):
            return .progress("Waiting for the sign-in on \(host):\(port) (timeout \(seconds(timeout)) s)\(cancel)…")
        case .refusedPeer(let owner):
            guard case .user(let uid) = owner else {
                return .notice(
                    "authctl: refused a request to the sign-in listener from a connection whose owner the system does not name (another network namespace, or a client gone meanwhile). If the sign-in does not finish, finish it with --manual (paste the redirect) or --device-code; only for a browser that reaches this machine through another user's process (WSL, some containers), --allow-any-local-user lets any local user in"
                )
            }
            return .notice(
                "authctl: refused a request to the sign-in listener from another local user (uid \(uid)): they cannot take over your sign-in. Only if your own browser reaches this machine through another user's process (WSL, some containers), sign in with --allow-any-local-user"
            )
        case .deviceCode(let provider, let verificationURI, let complete, let userCode):
            // Cross-device phishing: a code someone else sends is a sign-in to their session.
            let host = hostName.map { " on the machine \(Sanitize.visible($0))" } ?? " on this machine"
            let warning =
                "\n  This sign-in was started by authctl\(host). Enter the code only if you started it yourself, just now; never a code someone sent you."
            let code = Sanitize.visible(userCode)
            if let complete {
                return .notice(
                    "To sign in to \(provider), open \(complete.absoluteString)\n  (or open \(verificationURI.absoluteString) and enter the code \(code))\(warning)"
                )
            }
            return .notice("To sign in to \(provider), open \(verificationURI.absoluteString) and enter the code \(code)\(warning)")
        case .approveOnDevice(let provider, let bindingMessage):
            return .notice(
                "\(provider) has asked you to approve this sign-in on your device. Approve it only if your device shows: \(Sanitize.visible(bindingMessage))"
            )
        case .remoteBootstrap(let argument, let provider):
            return .notice(
                "To sign in to \(provider), run this command on a machine with a browser (authctl installed there; it needs no configuration there):\n\nauthctl bootstrap \(MessageSpelling.shellQuoted(argument))\n"
            )
        case .waitingForApproval(let until, let seconds):
            // The time of day in the local time zone: the person compares it with their clock.
            return .progress("Waiting for the sign-in to be approved (until \(LocalClockTime.string(until)), \(seconds) s)\(cancel)…")
        }
    }

    /// Whole seconds that never trap (NaN: 0; huge: clamped).
    static func seconds(_ value: TimeInterval) -> Int {
        value.isNaN ? 0 : Int(min(max(value, -1e15), 1e15))
    }
}
