import Foundation

/// An OpenID Provider's metadata (OpenID Connect Discovery 1.0 §3), read from
/// `<issuer>/.well-known/openid-configuration`.
public struct DiscoveryDocument: Sendable, Equatable, Codable {
    public var issuer: String
    public var authorizationEndpoint: URL
    public var tokenEndpoint: URL
    public var jwksURI: URL
    public var userinfoEndpoint: URL?
    public var revocationEndpoint: URL?
    public var deviceAuthorizationEndpoint: URL?
    public var idTokenSigningAlgValuesSupported: [String]?
    public var tokenEndpointAuthMethodsSupported: [String]?
    public var codeChallengeMethodsSupported: [String]?
    /// RFC 9207 §3: when true, a missing `iss` on the authorization response is refused.
    public var authorizationResponseIssParameterSupported: Bool?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
    }

    public init(
        issuer: String, authorizationEndpoint: URL, tokenEndpoint: URL, jwksURI: URL,
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

    /// Parses and checks a discovery document: required fields present, `issuer` equal to
    /// `expectedIssuer` exactly (Discovery §4.3), every endpoint `https://` or loopback
    /// `http://`. Any failure is `provider-not-configured`.
    public static func parse(_ data: Data, expectedIssuer: String, source: URL) throws -> DiscoveryDocument {
        try parse(data, source: source) { try requireIssuer($0, equals: expectedIssuer) }
    }

    /// Discovery §4.3: the document's `issuer` equals the configured issuer exactly.
    public static func requireIssuer(_ issuer: String, equals expectedIssuer: String) throws {
        if issuer != expectedIssuer {
            throw AuthError.notConfigured(
                "the discovery document names the issuer '\(Sanitize.text(issuer))', not the configured '\(expectedIssuer)'. Fix the issuer with: authctl providers add ID --issuer URL"
            )
        }
    }

    /// The same, with the issuer checked by `checkIssuer` (a provider's rule,
    /// `IdentityProvider.checkDiscoveryIssuer`).
    public static func parse(_ data: Data, source: URL, checkIssuer: (String) throws -> Void) throws -> DiscoveryDocument {
        let document: DiscoveryDocument
        do {
            document = try JSONDecoder().decode(DiscoveryDocument.self, from: data)
        } catch {
            throw AuthError.notConfigured(
                "the discovery document at \(source.host ?? "?")\(source.path) is not usable (required fields missing or malformed). Check the issuer URL with: authctl providers show"
            )
        }
        try checkIssuer(document.issuer)
        for endpoint in [document.authorizationEndpoint, document.tokenEndpoint, document.jwksURI]
            + [document.userinfoEndpoint, document.revocationEndpoint, document.deviceAuthorizationEndpoint].compactMap({ $0 })
        {
            try EndpointPolicy.check(endpoint, what: "the provider's endpoint")
        }
        return document
    }
}

/// SPEC §8: only `http://` on loopback hosts; every other endpoint must be `https://`.
public enum EndpointPolicy {
    public static func isLoopback(host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    public static func check(_ url: URL, what: String) throws {
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
