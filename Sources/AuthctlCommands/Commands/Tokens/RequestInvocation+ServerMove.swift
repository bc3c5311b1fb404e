import AuthCore

/// `authctl request` when the resource moved to another authorization server (MCP SEP-2352;
/// docs/resources.md, "When the authorization server changes").
extension RequestInvocation {
    /// The resource answered 401 and its metadata names another server than the grant's. The
    /// sign-in there is `login URL`'s, held to the server the resource named (`issuer`) and
    /// given the grant's issuer (`movingFrom`): the person at the terminal is asked, naming the
    /// resource and both servers; a no, or nobody at the terminal (a browser command alone is no
    /// consent), is `consent-required` naming `authctl login URL`, with nothing signed in. The
    /// old grant stays; the new one, newer, answers the request sent again.
    func move(_ move: ServerMove, scopes: [String], useCases: UseCaseGraph, wiring: Wiring) async throws {
        // For the scopes the grant held (a step-up's too), as after a failed renewal.
        var options = FlowOptions(scopes: scopes, timeout: TimeInterval(timeout))
        options.allowAnyLocalUser = wiring.environment["AUTHCTL_ALLOW_ANY_LOCAL_USER"] == "1"
        let output = try await useCases.resourceSignIn.run(
            .init(resource: move.resource, issuer: move.to, options: options, movingFrom: move.from))
        Login.noticeRegistration(output, wiring: wiring)
    }

    /// The resource named yet another server after this request's move: not followed around.
    static func movedAgain(_ move: ServerMove, after first: ServerMove) -> AuthError {
        let to = Sanitize.text(move.to, limit: 100)
        return AuthError.resourceError(
            "the resource \(move.resource) names the authorization server \(to) right after authctl signed in for it at \(Sanitize.text(first.to, limit: 100)), the one it named before; authctl follows one move per request. Try again later, or sign in where it names now: \(command: .login, "\(move.resource)")",
            details: ["resource": .string(move.resource), "issuer": .string(move.to), "previousIssuer": .string(move.from)])
    }
}
