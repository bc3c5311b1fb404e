extension HTTPRequest {
    /// What a request says about the secrets it carries, checked by `checkEgress` before it is
    /// sent (docs/security.md, "The egress rule").
    public enum Egress: Sendable, Equatable {
        /// It carries nothing authctl holds or reads as a secret: discovery, key sets,
        /// metadata, a registration without a token. A request that carries a credential all
        /// the same (`carriedCredential`) is refused: forgetting to bind fails closed.
        case open
        /// It carries secrets of `provider` (a provider id) bound to `binding`: it goes only to
        /// one of the binding's origins.
        case bound(SecretBinding, provider: String)
        /// It hands a token to the recipient the command exists to give it to, named by the
        /// person on its command line or in its rule (AWS STS for `aws-credentials`), and
        /// checked by that command's own rules.
        case handedOver(recipient: String)
    }

    /// The egress rule, the one check every request passes (`HTTPTransport.send` and `stream`
    /// call it): a request bound to secrets goes only to an origin of their binding; a request
    /// that says it carries none must carry no credential. Throws, and nothing is sent.
    public func checkEgress() throws {
        switch egress {
        case .bound(let binding, let provider):
            guard !binding.permits(url) else { return }
            throw AuthError.egressRefused(provider: provider, binding: binding, toward: url)
        case .handedOver: return
        case .open:
            guard let credential = carriedCredential else { return }
            throw AuthError.internalError(
                "authctl refused to send a request to \(place) that carries a credential (\(credential)) without saying where that credential may go; nothing was sent. This is a bug in authctl: please report it"
            )
        }
    }

    /// The first credential this request carries, by its name: an `Authorization`, `DPoP` or
    /// `Cookie` header, or a form parameter that holds a token, a code or a client's
    /// authentication. Nil when it carries none.
    var carriedCredential: String? {
        for name in headers.keys {
            if let credential = Self.credentialHeaders.first(where: { $0.equalsIgnoringCase(name) }) { return "the \(credential) header" }
        }
        guard let body, let type = header("Content-Type"), type.lowercased().hasPrefix("application/x-www-form-urlencoded") else {
            return nil
        }
        for pair in body.split(separator: UInt8(ascii: "&")) {
            let name = String(decoding: pair.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self)
            if Self.credentialParameters.contains(name) { return "the \(name) parameter" }
        }
        return nil
    }

    /// A header of the request, whatever the case of its name.
    func header(_ name: String) -> String? { headers.first { $0.key.equalsIgnoringCase(name) }?.value }

    static let credentialHeaders = ["Authorization", "Proxy-Authorization", "DPoP", "Cookie"]
    /// RFC 6749 (`code`, `refresh_token`, `client_secret`, `password`), RFC 7636
    /// (`code_verifier`), RFC 7521/7523 (`client_assertion`, `assertion`), RFC 7009/7662
    /// (`token`), RFC 8628 (`device_code`), RFC 8693 (`subject_token`, `actor_token`), CIBA
    /// (`auth_req_id`), AWS STS (`WebIdentityToken`).
    static let credentialParameters: Set<String> = [
        "code", "code_verifier", "refresh_token", "client_secret", "client_assertion", "assertion", "password", "token",
        "device_code", "subject_token", "actor_token", "auth_req_id", "WebIdentityToken",
    ]
}

extension AuthError {
    /// A request whose secrets may not go where it was addressed (`HTTPRequest.checkEgress`):
    /// `provider-not-configured` (exit 7), naming what changed and both ways out.
    static func egressRefused(provider: String, binding: SecretBinding, toward url: URL) -> AuthError {
        let target = Origin(url)?.description ?? Sanitize.text(url.scheme.map { "\($0)://\(url.host ?? "?")" } ?? "?", limit: 200)
        let bound = binding.origins.map(\.description).joined(separator: ", ")
        return AuthError.notConfigured(
            "authctl refused to send the \(provider) secrets to \(Sanitize.text(target, limit: 200)): they were obtained from \(Sanitize.text(binding.issuer, limit: 200)) and may go only to \(bound.isEmpty ? "the origin they came from" : bound). Nothing was sent. The configuration, the provider's metadata or a URL names another server than when they were stored. If the provider really moved, confirm its new issuer and sign in again: \(command: .login, "\(provider)"); otherwise set it back: \(command: .providersAdd, "\(provider)", .input(.issuer, Sanitize.text(binding.issuer, limit: 200)))",
            details: [
                "egress": .string("refused"), "origin": .string(target), "issuer": .string(binding.issuer),
                "boundOrigins": .array(binding.origins.map { .string($0.description) }),
            ])
    }
}
