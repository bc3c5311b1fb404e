#if canImport(Glibc)
    import Glibc
#endif

/// An OpenID Provider's metadata (OpenID Connect Discovery 1.0 §3), read from
/// `<issuer>/.well-known/openid-configuration`.
public struct DiscoveryDocument: Sendable, Equatable, Codable {
    public var issuer: String
    public var authorizationEndpoint: URL
    public var tokenEndpoint: URL
    /// Where the keys of its ID tokens are. Required by OpenID Connect Discovery §3, optional in
    /// RFC 8414 §2 (an authorization server that issues no ID token, as an MCP server's, may
    /// publish none): an ID token from a server without it is refused (`ProviderMetadata.keys`).
    public var jwksURI: URL?
    public var userinfoEndpoint: URL?
    public var revocationEndpoint: URL?
    /// RFC 7662 §2 (advertised per RFC 8414 §2): where a token's state can be asked.
    public var introspectionEndpoint: URL?
    public var deviceAuthorizationEndpoint: URL?
    public var idTokenSigningAlgValuesSupported: [String]?
    public var tokenEndpointAuthMethodsSupported: [String]?
    public var codeChallengeMethodsSupported: [String]?
    /// RFC 9207 §3: when true, a missing `iss` on the authorization response is refused.
    public var authorizationResponseIssParameterSupported: Bool?
    /// RFC 9449 §5.1: the proof algorithms the provider takes; its presence says it binds
    /// tokens to DPoP keys.
    public var dpopSigningAlgValuesSupported: [String]?
    /// RFC 9126 §5: where authorization requests are pushed.
    public var pushedAuthorizationRequestEndpoint: URL?
    /// RFC 9126 §5: every authorization request must be pushed.
    public var requirePushedAuthorizationRequests: Bool?
    /// RFC 9396 §10: the `authorization_details` types the provider knows.
    public var authorizationDetailsTypesSupported: [String]?
    /// CIBA Core 1.0 §4: where a backchannel authentication request is posted.
    public var backchannelAuthenticationEndpoint: URL?
    /// CIBA Core 1.0 §4: `poll`, `ping`, `push` — the delivery modes the provider offers
    /// (authctl uses `poll`).
    public var backchannelTokenDeliveryModesSupported: [String]?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case introspectionEndpoint = "introspection_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case authorizationDetailsTypesSupported = "authorization_details_types_supported"
        case backchannelAuthenticationEndpoint = "backchannel_authentication_endpoint"
        case backchannelTokenDeliveryModesSupported = "backchannel_token_delivery_modes_supported"
    }

    public init(
        issuer: String, authorizationEndpoint: URL, tokenEndpoint: URL, jwksURI: URL?,
        userinfoEndpoint: URL? = nil, revocationEndpoint: URL? = nil,
        deviceAuthorizationEndpoint: URL? = nil, idTokenSigningAlgValuesSupported: [String]? = nil,
        tokenEndpointAuthMethodsSupported: [String]? = nil, codeChallengeMethodsSupported: [String]? = nil,
        authorizationResponseIssParameterSupported: Bool? = nil
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.jwksURI = jwksURI
        self.userinfoEndpoint = userinfoEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.idTokenSigningAlgValuesSupported = idTokenSigningAlgValuesSupported
        self.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
    }

    /// The endpoints MCP's 2025-03-26 revision has a client use where an authorization server
    /// publishes no metadata: `/authorize` and `/token` under `issuer`, which must be an origin
    /// (`scheme://host[:port]`, https or loopback http). Nil otherwise. No key set, so no ID token.
    public static func defaultEndpoints(at issuer: String) -> DiscoveryDocument? {
        guard let url = URL(string: issuer), url.host != nil, ResourceIdentifier.origin(of: url) == issuer,
            (try? EndpointPolicy.check(url, what: "the authorization server")) != nil,
            let authorization = URL(string: issuer + "/authorize"), let token = URL(string: issuer + "/token")
        else { return nil }
        return DiscoveryDocument(issuer: issuer, authorizationEndpoint: authorization, tokenEndpoint: token, jwksURI: nil)
    }

    /// Parses and checks a discovery document: required fields present, `issuer` equal to
    /// `expectedIssuer` exactly (Discovery §4.3), every endpoint `https://` or loopback
    /// `http://`. Any failure is `provider-not-configured`.
    public static func parse(_ data: Data, expectedIssuer: String, source: URL) throws -> DiscoveryDocument {
        try parse(data, source: source) { try requireIssuer($0, equals: expectedIssuer) }
    }

    /// Discovery §4.3: the document's `issuer` equals the configured issuer exactly. The
    /// advice names the provider and, when the document's issuer is a usable URL (a
    /// trailing slash is the usual difference), gives it to `providers add`.
    public static func requireIssuer(_ issuer: String, equals expectedIssuer: String, provider: ProviderID? = nil) throws {
        if issuer != expectedIssuer {
            let id: Message.Argument = provider.map { "\($0)" } ?? "ID"
            let named = Sanitize.text(issuer)
            // Only characters a shell takes as they are: the advice is a command to paste.
            let plain = issuer.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || ":/._-~%".unicodeScalars.contains($0)
            }
            let usable = plain && URL(string: issuer).map { (try? EndpointPolicy.check($0, what: "the issuer")) != nil } == true
            let fix: Message =
                usable
                ? "If that is the provider you mean, set it with: \(command: .providersAdd, id, .input(.issuer, issuer))"
                : "Check the issuer with: \(command: .providersShow, id)"
            throw AuthError.notConfigured(
                "the discovery document names the issuer '\(named)', not the configured '\(expectedIssuer)'. \(fix)")
        }
    }

    /// The same, with the issuer checked by `checkIssuer` (a provider's rule,
    /// `ProviderDiscovery.checkDiscoveryIssuer`).
    public static func parse(_ data: Data, source: URL, checkIssuer: (String) throws -> Void) throws -> DiscoveryDocument {
        let document: DiscoveryDocument
        do {
            document = try JSONDecoder().decode(DiscoveryDocument.self, from: data)
        } catch {
            throw AuthError.notConfigured(
                "the discovery document at \(Sanitize.url(source)) is not usable (required fields missing or malformed). Check the issuer URL with: \(command: .providersShow)"
            )
        }
        try checkIssuer(document.issuer)
        // OpenID Connect Discovery §3 requires the key set; RFC 8414 §2 does not.
        if document.jwksURI == nil, source.path.hasSuffix("/.well-known/openid-configuration") {
            throw AuthError.notConfigured(
                "the discovery document at \(Sanitize.url(source)) names no jwks_uri, which OpenID Connect requires. Check the issuer URL with: \(command: .providersShow)"
            )
        }
        for endpoint in [document.authorizationEndpoint, document.tokenEndpoint]
            + [
                document.jwksURI, document.userinfoEndpoint, document.revocationEndpoint, document.introspectionEndpoint,
                document.deviceAuthorizationEndpoint, document.pushedAuthorizationRequestEndpoint,
                document.backchannelAuthenticationEndpoint,
            ].compactMap({ $0 })
        {
            try EndpointPolicy.check(endpoint, what: "the provider's endpoint")
        }
        return document
    }
}

/// docs/getting-started.md: only `http://` on loopback hosts; every other endpoint must be `https://`.
public enum EndpointPolicy {
    /// True for a loopback host, decided by parsing, never by comparing prefixes (a name such
    /// as `127.attacker.example` or `127.0.0.1.nip.io` is a remote host):
    ///
    /// - an IPv4 literal in 127.0.0.0/8 in the four-octet dotted form `inet_pton` accepts
    ///   (`127.1`, octal or hex spellings that `inet_aton` would take are not loopback);
    /// - the IPv6 loopback `::1` in any spelling `inet_pton` accepts (`0:0:0:0:0:0:0:1`),
    ///   with or without brackets; an IPv4-mapped `::ffff:127.0.0.1` is not (it is refused
    ///   as plain http, which is the safe side);
    /// - the name `localhost` in any case (RFC 6761 §6.3). `localhost.` (the fully qualified
    ///   form) and `*.localhost` are not: resolvers may send those to DNS.
    public static func isLoopback(host: String?) -> Bool {
        guard var host, !host.isEmpty else { return false }
        if host.lowercased() == "localhost" { return true }
        if host.hasPrefix("[") || host.hasSuffix("]") {
            guard host.hasPrefix("["), host.hasSuffix("]"), host.count > 2 else { return false }
            host = String(host.dropFirst().dropLast())
            guard host.contains(":") else { return false }  // brackets are for IPv6 only
        }
        if host.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, host, &address) == 1 else { return false }
            return withUnsafeBytes(of: &address) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
        }
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return false }
        return withUnsafeBytes(of: &address) { $0.first == 127 }
    }

    public static func check(_ url: URL, what: Message) throws {
        switch url.scheme?.lowercased() {
        case "https" where url.host?.isEmpty == false:
            return
        case "http" where isLoopback(host: url.host):
            return
        default:
            throw AuthError.notConfigured(
                "\(what) \(url.scheme ?? "?")://\(url.host ?? "")\(url.path) is not https:// (plain http is only allowed on loopback addresses). Use the provider's https:// address"
            )
        }
    }
}
