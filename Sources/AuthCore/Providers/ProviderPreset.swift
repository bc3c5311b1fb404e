/// A well-known OpenID Connect provider whose issuer follows a documented pattern
/// (`providers add google|gitlab|okta|auth0|keycloak`). A preset is only a way to write the
/// configuration: it chooses the provider id (`oidc.<name>`) unless one is given, and builds
/// the issuer; what is saved is a plain `oidc.*` provider.
///
/// The domain is a host name (`dev-123.okta.com`, `kc.example.com:8443`) to which `https://`
/// is prefixed, or a base URL with its scheme: `https://…`, or `http://` on a loopback
/// address only (a local provider, tests), as every endpoint (docs/getting-started.md).
public enum ProviderPreset: String, CaseIterable, Sendable {
    case google, gitlab, okta, auth0, keycloak

    /// The provider id the preset saves under when none is given.
    public var defaultProviderID: String { "oidc.\(rawValue)" }

    /// The issuer of this preset; `domain`, `realm` and `authorizationServer` as given.
    public func issuer(domain: String?, realm: String?, authorizationServer: String?) throws -> String {
        if realm != nil, self != .keycloak { throw Self.notApplicable(.realm, only: .keycloak) }
        if authorizationServer != nil, self != .okta { throw Self.notApplicable(.authorizationServer, only: .okta) }
        switch self {
        case .google:
            if domain != nil {
                throw AuthError.invalidArgument(
                    "google has one issuer, https://accounts.google.com: \(input: .domain) does not apply (\(input: .issuer) overrides it for a local fake)"
                )
            }
            return "https://accounts.google.com"
        case .gitlab:
            return try domain.map(base) ?? "https://gitlab.com"
        case .okta:
            let base = try base(try required(domain, .domain))
            guard let authorizationServer else { return base }
            return base + "/oauth2/" + (try Self.segment(authorizationServer, .authorizationServer))
        case .auth0:
            // Auth0's issuer ends with a slash (its discovery document and tokens say so).
            return try base(try required(domain, .domain)) + "/"
        case .keycloak:
            let base = try base(try required(domain, .domain))
            return base + "/realms/" + (try Self.segment(try required(realm, .realm), .realm))
        }
    }

    private func required(_ value: String?, _ input: Message.Input) throws -> String {
        guard let value, !value.isEmpty else {
            throw AuthError.invalidArgument(
                "the \(rawValue) preset needs \(input: input) (\(Self.example(input))). Add it: \(command: .providersAdd, "\(rawValue)", .input(input, Self.placeholder(input)))"
            )
        }
        return value
    }

    /// `https://DOMAIN`, or the domain given with its scheme; never a path, query or user.
    private func base(_ domain: String) throws -> String {
        let text = domain.contains("://") ? domain : "https://" + domain
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard let components = URLComponents(string: trimmed), let host = components.host, !host.isEmpty,
            components.path.isEmpty, components.query == nil, components.fragment == nil, components.user == nil,
            components.password == nil, let url = components.url
        else {
            throw AuthError.invalidArgument(
                "'\(Sanitize.text(domain, limit: 80))' is not a domain for \(input: .domain): give a host name such as \(Self.example(.domain)), without a path"
            )
        }
        let scheme = url.scheme?.lowercased()
        guard scheme == "https" || (scheme == "http" && EndpointPolicy.isLoopback(host: host)) else {
            throw AuthError.invalidArgument(
                "the \(rawValue) domain '\(Sanitize.text(domain, limit: 80))' is not https:// (plain http is only allowed on loopback addresses). Give the host name alone: https:// is added"
            )
        }
        return trimmed
    }

    /// A realm or authorization-server id: one path segment of letters, digits, `-`, `_`, `.`.
    private static func segment(_ value: String, _ input: Message.Input) throws -> String {
        let allowed = value.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
        guard allowed, !value.isEmpty, value != ".", value != ".." else {
            throw AuthError.invalidArgument(
                "'\(Sanitize.text(value, limit: 60))' cannot be a \(input: input): use letters, digits, '-', '_' and '.' only")
        }
        return value
    }

    private static func notApplicable(_ input: Message.Input, only preset: ProviderPreset) -> AuthError {
        AuthError.invalidArgument("\(input: input) applies to the \(preset.rawValue) preset only. Leave it out")
    }

    private static func placeholder(_ input: Message.Input) -> String {
        switch input {
        case .realm: "REALM"
        case .authorizationServer: "ID"
        default: "DOMAIN"
        }
    }

    private static func example(_ input: Message.Input) -> String {
        switch input {
        case .realm: "the Keycloak realm, e.g. master"
        case .authorizationServer: "e.g. default"
        default: "e.g. dev-123456.okta.com"
        }
    }
}
