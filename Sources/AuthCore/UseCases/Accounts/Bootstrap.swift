/// `bootstrap ARGUMENT` (docs/remote.md): the part of a remote sign-in that runs on the machine
/// with the browser. It reads the argument `login --remote` printed on the host, opens the
/// browser at a one-time start URL, listens on the redirect URI the argument names (the same
/// listener, owner check and start URL as every sign-in: `BrokeredSignIn`), and gives back the
/// line to paste on the host. It needs no configuration and no keystore, and writes nothing:
/// no token is made here (the code is exchanged on the host, with the PKCE verifier that never
/// left it).
public struct Bootstrap: Sendable {
    let flow: BrokeredSignIn

    public init(flow: BrokeredSignIn) { self.flow = flow }

    public struct Input: Sendable {
        public var argument: String
        public var timeout: TimeInterval
        public var allowAnyLocalUser: Bool

        public init(argument: String, timeout: TimeInterval = 300, allowAnyLocalUser: Bool = false) {
            self.argument = argument
            self.timeout = timeout
            self.allowAnyLocalUser = allowAnyLocalUser
        }
    }

    /// The line to paste on the host.
    public func run(_ input: Input) async throws -> String {
        let bootstrap = try RemoteBootstrap(argument: input.argument)
        let redirectURI = bootstrap.redirectURI.absoluteString
        try ProviderConfig.checkRedirectURI(redirectURI)
        let listenAddress = try bootstrap.listenAddress.map(ListenAddress.init(parsing:))
        // The host chose the port (the provider may match the redirect URI exactly): a
        // loopback redirect URI without one cannot be listened on here.
        if listenAddress == nil, bootstrap.redirectURI.port == nil {
            throw AuthError.invalidArgument(
                "the bootstrap argument names a redirect URI without a port, so there is nowhere to listen. Run \(command: .login, "PROVIDER", .input(.remote, nil)) again on the host"
            )
        }
        var options = FlowOptions(
            timeout: input.timeout, listenAddress: listenAddress, redirectURI: redirectURI, mode: .browser,
            allowAnyLocalUser: input.allowAnyLocalUser)
        options.scopes = []
        let authorization = BrokeredAuthorization(
            authorizationURL: bootstrap.authorizationURL, sessionID: "", state: bootstrap.state, formPost: bootstrap.formPost)
        let provider = try ProviderID(parsing: bootstrap.providerID)
        do {
            return try await flow.run(
                providerID: provider, options: options,
                authorize: { _ in authorization },
                complete: { redirect in RemoteBootstrap.responseLine(redirect: redirect.postBody ?? redirect.requestURI) },
                successPage: SignInPage.returnToHost)
        } catch let error as AuthError where error.oauthError != nil {
            // The provider refused in the browser (access_denied…): nothing to paste.
            throw AuthError.invalidCredential(
                "\(provider) refused the sign-in in the browser (\(error.oauthError?.rawValue ?? "?")). There is nothing to paste: stop the waiting \(command: .login, "PROVIDER", .input(.remote, nil)) on the other machine (Ctrl-C) and start it again",
                oauthError: error.oauthError)
        }
    }
}
