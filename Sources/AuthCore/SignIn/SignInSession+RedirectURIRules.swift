/// The redirect URI and the listen address of a browser sign-in (`--redirect-uri`,
/// `--listen-address`, the provider's configuration), checked before anything is fetched.
extension SignInSession {
    static func parseRedirectURI(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.host != nil, ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw AuthError.invalidArgument("\(input: .redirectURI) '\(Sanitize.text(text))' is not an http(s) URL")
        }
        return url
    }

    /// A redirect URI off this machine (a registered `https` page that forwards the
    /// response to the listener, docs/apple.md) must be `https`, and the forwarding page
    /// must know where to post: the listener needs a fixed port.
    static func checkForwarding(_ redirectURI: URL?, listenAddress: ListenAddress) throws {
        guard let redirectURI, !EndpointPolicy.isLoopback(host: redirectURI.host) else { return }
        guard redirectURI.scheme?.lowercased() == "https" else {
            throw AuthError.invalidArgument(
                "\(input: .redirectURI) \(Sanitize.text(redirectURI.absoluteString)) is neither on this machine nor https. Use an https page that forwards to the listener, or a loopback URI"
            )
        }
        guard listenAddress.port != 0 else {
            throw AuthError.invalidArgument(
                "\(input: .redirectURI) \(Sanitize.text(redirectURI.absoluteString)) is not on this machine, so its page must forward to a listener at a fixed address: add \(input: .listenAddress) 127.0.0.1:PORT (the port the page posts to; see apple.md in the documentation)"
            )
        }
    }

    /// A loopback redirect URI with a port fixes the listening port (providers that match
    /// redirect URIs exactly); otherwise 127.0.0.1 and an ephemeral port.
    static func listenAddress(impliedBy redirectURI: URL?) -> ListenAddress {
        if let redirectURI, EndpointPolicy.isLoopback(host: redirectURI.host), let port = redirectURI.port {
            let host =
                redirectURI.host == "localhost" ? "127.0.0.1" : (redirectURI.host ?? "").trimming(ScalarSet(charactersIn: "[]"))
            return ListenAddress(host: host, port: UInt16(exactly: port) ?? 0)  // out of range: refused at parse time; never a trap
        }
        return ListenAddress(host: "127.0.0.1", port: 0)
    }
}
