/// The claims of a validated ID token (OpenID Connect Core 2, 5.1).
public struct IDTokenClaims: Sendable, Equatable {
    /// Every claim as received.
    public let raw: [String: JSONValue]

    public init(raw: [String: JSONValue]) { self.raw = raw }

    /// `iss`.
    public var issuer: String { raw["iss"]?.stringValue ?? "" }
    /// `sub`: the subject identifier, unique per issuer.
    public var subject: String { raw["sub"]?.stringValue ?? "" }
    /// `aud` as a list (it may be a single string).
    public var audiences: [String] {
        switch raw["aud"] {
        case .string(let s): [s]
        case .array(let values): values.compactMap(\.stringValue)
        default: []
        }
    }
    /// `exp`.
    public var expiresAt: Date? { raw["exp"]?.numberValue.map(Date.init(timeIntervalSince1970:)) }
    /// `iat`.
    public var issuedAt: Date? { raw["iat"]?.numberValue.map(Date.init(timeIntervalSince1970:)) }
    /// `nonce`.
    public var nonce: String? { raw["nonce"]?.stringValue }
    /// `email`.
    public var email: String? { raw["email"]?.stringValue }
    /// `email_verified`, as a boolean or the string `"true"`.
    public var emailVerified: Bool { raw["email_verified"]?.lenientBool ?? false }
    /// `name`, or `given_name family_name`.
    public var name: String? {
        if let name = raw["name"]?.stringValue, !name.isEmpty { return name }
        let parts = [raw["given_name"]?.stringValue, raw["family_name"]?.stringValue].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
    /// `picture`.
    public var picture: String? { raw["picture"]?.stringValue }

    /// Decodes the payload of a compact JWS without checking anything (for the validator
    /// and for tests). Nil when it is not a three-part JWS with a JSON object payload.
    static func unverifiedParts(of token: String) -> (header: [String: JSONValue], payload: [String: JSONValue])? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerData = Base64URL.decode(parts[0]), let header = JSONValue.object(from: headerData),
            let payloadData = Base64URL.decode(parts[1]), let payload = JSONValue.object(from: payloadData)
        else { return nil }
        return (header, payload)
    }
}

extension IDTokenClaims: Codable {
    public init(from decoder: any Decoder) throws {
        raw = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(raw)
    }
}
