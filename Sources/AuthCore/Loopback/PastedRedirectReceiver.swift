import Synchronization

/// `--manual`: the person pastes the address the browser ended on (or the form body it
/// posted), judged by the same `CallbackStateMachine` as the listener's requests. Binds
/// nothing.
///
/// The redirect URI's port: the one asked for (`--listen-address`, or the port of a
/// loopback `--redirect-uri`, which the provider may match exactly); otherwise one drawn at
/// random from `RedirectListener.unlentPorts` (RFC 8252 §7.3 lets the provider accept any port
/// of a loopback redirect URI), which `login --remote`'s laptop listens on. Nothing listens
/// here: the browser's page fails to load, and the person pastes its address. Borrowing a free port from the kernel,
/// as authctl once did, gave no more: the port was free only while it was borrowed. Should
/// another program listen on the drawn port, the code it may see is worthless without the
/// PKCE verifier, which never leaves authctl (RFC 7636 §1).
public final class PastedRedirectReceiver: RedirectReceiver {
    public let host: String
    public let port: UInt16
    public var servesStartURL: Bool { false }
    private let read: @Sendable () async -> String?
    private let pending = Mutex<(machine: CallbackStateMachine, redirectURI: URL)?>(nil)

    public init(address: ListenAddress, random: any RandomSource, read: @escaping @Sendable () async -> String?) {
        host = address.host
        if address.port != 0 {
            port = address.port
        } else {
            let bytes = random.bytes(count: 2)
            let drawn = bytes.count == 2 ? UInt16(bytes[0]) << 8 | UInt16(bytes[1]) : 0
            let ports = RedirectListener.unlentPorts
            port = ports.lowerBound + drawn % UInt16(ports.count)
        }
        self.read = read
    }

    public func start(_ machine: CallbackStateMachine, redirectURI: URL, until deadline: Date, events: any AuthEventSink) {
        pending.withLock { $0 = (machine, redirectURI) }
    }

    public func redirect() async throws -> ReceivedRedirect {
        guard let (initial, redirectURI) = pending.withLock({ $0 }) else {
            throw AuthError.internalError("the pasted redirect was asked for before the sign-in started")
        }
        guard let line = await read(), !line.trimming(.whitespaces).isEmpty else {
            // Ctrl-C at the prompt: the words of every sign-in's Ctrl-C (the loopback wait's).
            if Task.isCancelled { throw AuthError.cancelled("the sign-in was cancelled. Run the command again to sign in") }
            throw AuthError.cancelled(
                "no redirect URL arrived on stdin. Paste the address the browser ended on after signing in (\(input: .manual) reads it from stdin), or the last line \(command: .bootstrap, "…") printed (\(input: .remote))"
            )
        }
        // docs/remote.md: the line `bootstrap` printed carries the redirect as its browser sent it.
        let pasted = try RemoteBootstrap.redirect(fromPasted: line) ?? line
        var machine = initial
        let action = machine.receive(PastedResponse.request(from: pasted, redirectPath: initial.expectation.path))
        guard case .finish(let outcome) = action.decision else {
            // What was pasted is never echoed (it may hold a code); what was expected is.
            let expected =
                "\(redirectURI.scheme ?? "http")://\(redirectURI.host ?? "")\(redirectURI.port.map { ":\($0)" } ?? "")\(redirectURI.path)"
            let reason = action.response.body.trimming(.whitespacesAndNewlines)
            throw AuthError.invalidArgument(
                "what was pasted is not the redirect of this sign-in (\(reason.hasSuffix(".") ? String(reason.dropLast()) : reason)). Run the command again and paste the whole address the browser ended on, which starts with \(expected), the form body it posted, or the last line of \(command: .bootstrap, "…") for this sign-in"
            )
        }
        return ReceivedRedirect(outcome: outcome)
    }

    public func close() {}
}
