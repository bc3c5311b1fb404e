/// The two texts of a remote sign-in (docs/remote.md): the argument of the `bootstrap`
/// command the host prints, and the line `bootstrap` prints back to be pasted on the host.
///
/// The argument carries what the machine with the browser needs to play the loopback part of
/// the sign-in: the authorization URL (or, for a pushed request, the URL naming its
/// `request_uri`), the redirect URI to listen on, the `state` its redirect must carry (a
/// pushed request's URL does not show it), and whether the provider answers by form_post.
/// Never the PKCE verifier, the nonce's raw value or a DPoP key: those stay on the host, so
/// the code that comes back is useless anywhere else (RFC 7636 §1).
///
/// The line back carries the redirect as the browser delivered it (the callback URL, or the
/// form body of a form_post), which the host judges exactly as a `--manual` paste: path,
/// `state`, `iss`, errors. It carries no token.
public struct RemoteBootstrap: Sendable, Equatable {
    /// The provider id, for the words `bootstrap` shows.
    public var providerID: String
    public var authorizationURL: URL
    public var redirectURI: URL
    /// Where the listener binds when the redirect URI is not on this machine (a forwarding
    /// https page, docs/apple.md), as `--listen-address` takes it (`HOST:PORT`); nil: the
    /// redirect URI's own host and port.
    public var listenAddress: String?
    public var state: String
    public var formPost: Bool

    public init(providerID: String, authorizationURL: URL, redirectURI: URL, listenAddress: String? = nil, state: String, formPost: Bool) {
        self.providerID = providerID
        self.authorizationURL = authorizationURL
        self.redirectURI = redirectURI
        self.listenAddress = listenAddress
        self.state = state
        self.formPost = formPost
    }

    /// The version prefix of the argument.
    static let argumentPrefix = "b1."
    /// The prefix of the line `bootstrap` prints for the host.
    public static let responsePrefix = "authctl-redirect-b1."
    /// The longest argument or pasted line read (an authorization URL with its parameters
    /// stays far below; a redirect body too).
    public static let maximumLength = 32 * 1024

    private struct Wire: Codable {
        var v: Int
        var provider: String
        var url: String
        var redirect: String
        var listen: String?
        var state: String
        var formPost: Bool?
    }

    /// The argument: `b1.` and the base64url of a small JSON object. Only characters a shell
    /// takes as they are; quoted anyway where it is shown.
    public var argument: String {
        let wire = Wire(
            v: 1, provider: providerID, url: authorizationURL.absoluteString, redirect: redirectURI.absoluteString,
            listen: listenAddress, state: state,
            formPost: formPost ? true : nil)
        let data = (try? JSONEncoder().encode(wire)) ?? Data()
        return Self.argumentPrefix + Base64URL.encode(Array(data))
    }

    /// Reads an argument printed by `login --remote`: bounded, the authorization URL checked
    /// (`https://` or loopback `http://`), so that a changed or foreign argument fails here,
    /// before a browser opens. The redirect URI and listen address are checked where they are
    /// used, as `--redirect-uri` and `--listen-address` are.
    public init(argument: String) throws {
        let text = argument.trimming(.whitespacesAndNewlines)
        let malformed = AuthError.invalidArgument(
            "the argument is not one that \(command: .login, "PROVIDER", .input(.remote, nil)) printed (it is cut or changed). Copy the whole argument of the bootstrap command it printed, quotes included"
        )
        guard text.utf8.count <= Self.maximumLength, text.hasPrefix(Self.argumentPrefix),
            let bytes = Base64URL.decode(String(text.dropFirst(Self.argumentPrefix.count))),
            let wire = try? JSONDecoder().decode(Wire.self, from: Data(bytes)), wire.v == 1,
            let url = URL(string: wire.url), let redirect = URL(string: wire.redirect), !wire.state.isEmpty
        else { throw malformed }
        try EndpointPolicy.check(url, what: "the authorization URL of the bootstrap argument")
        self.init(
            providerID: wire.provider, authorizationURL: url, redirectURI: redirect, listenAddress: wire.listen,
            state: wire.state, formPost: wire.formPost == true)
    }

    /// The line `bootstrap` prints: the prefix and the base64url of the redirect text (one
    /// line, whatever the redirect held).
    public static func responseLine(redirect text: String) -> String {
        responsePrefix + Base64URL.encode(Array(text.utf8))
    }

    /// The redirect text of a pasted line: nil when the line is not a bootstrap line (a pasted
    /// address, judged as it is); `invalid-argument` when it is one that was cut or changed.
    public static func redirect(fromPasted line: String) throws -> String? {
        let text = line.trimming(.whitespacesAndNewlines)
        guard text.hasPrefix(responsePrefix) else { return nil }
        guard let bytes = Base64URL.decode(String(text.dropFirst(responsePrefix.count))),
            let decoded = String(validating: bytes, as: UTF8.self),
            !decoded.isEmpty
        else {
            throw AuthError.invalidArgument(
                "the pasted line starts as the bootstrap command's last line but is cut or changed. Paste that whole line (it is long: copy all of it)"
            )
        }
        return decoded
    }
}
