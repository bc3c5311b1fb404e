/// RFC 8707 §2 and RFC 9068 §4 where a grant's token leaves authctl (docs/resources.md,
/// docs/security.md): an access token in the JWT shape is presented — by `request`, or printed
/// by `token --resource` for another program to send — only when its `aud` names the resource.
/// A token that says it is for someone else (the company's API a borrowed provider issued it
/// for) is never sent. A JWE or an opaque token cannot be read and goes as it is.
///
/// The signature is not checked: a client does not trust these claims, it only refuses to send
/// a token that states another audience.
public enum ResourceAudience {
    /// The audiences (`aud`) an access token states: nil when it is not a JWS in compact form
    /// with a JSON header naming `alg` and a JSON object as payload (opaque, or a JWE); empty
    /// when it is one without a string or list of strings as `aud`.
    public static func audiences(of accessToken: String) -> [String]? {
        let parts = accessToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, accessToken.count <= 64 << 10, let headerBytes = Base64URL.decode(parts[0]),
            let header = JSONValue.object(from: headerBytes), case .string? = header["alg"],
            let payloadBytes = Base64URL.decode(parts[1]), let payload = JSONValue.object(from: payloadBytes)
        else { return nil }
        switch payload["aud"] {
        case .string(let audience)?: return [audience]
        case .array(let values)?:
            return values.compactMap { if case .string(let audience) = $0 { audience } else { nil } }
        default: return []
        }
    }

    /// True when `audience` names `resource`: the resource identifier itself (scheme and host
    /// in any case), or an identifier that covers it (its origin, or a path above it).
    public static func names(_ audience: String, _ resource: ResourceIdentifier) -> Bool {
        guard audience.count <= 2048, let named = try? ResourceIdentifier(parsing: audience) else { return false }
        return named == resource || named.covers(resource.url)
    }

    /// Refuses `accessToken` for `grant` when it is a JWT whose `aud` does not name the grant's
    /// resource (`invalid-credential`: what it names, that it was not sent, what to do).
    public static func check(_ accessToken: String, for grant: ResourceGrant) throws {
        guard let audiences = audiences(of: accessToken) else { return }
        let resource = try ResourceIdentifier(parsing: grant.resource)
        guard !audiences.contains(where: { names($0, resource) }) else { return }
        let named =
            audiences.isEmpty
            ? "no audience (aud)" : "the audience \(audiences.prefix(3).map { Sanitize.text($0, limit: 100) }.joined(separator: ", "))"
        throw AuthError.invalidCredential(
            "the access token that \(Sanitize.text(grant.issuer, limit: 100)) issued for \(grant.resource) names \(named), not the resource: it was not sent (RFC 8707). That server did not bind the token to the resource; sign in to the resource again (\(command: .login, "\(grant.resource)")), and if it happens again ask the resource's operator which server issues its tokens",
            details: [
                "resource": .string(grant.resource), "issuer": .string(grant.issuer),
                "audience": .array(audiences.prefix(10).map { .string(Sanitize.text($0, limit: 200)) }),
            ])
    }
}
