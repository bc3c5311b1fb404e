import JWTKit

/// What an ID token must satisfy for one sign-in (or one refresh).
public struct IDTokenExpectations: Sendable, Equatable {
    /// The issuer the request went to (exact string comparison).
    public var issuer: String
    /// The client id: must be in `aud`, and equal `azp` when present.
    public var clientID: String
    /// The `nonce` claim expected (what the request carried; Apple: its SHA-256), or nil
    /// when no nonce was sent (refresh).
    public var nonce: String?
    /// Allowed `alg` values (never `none`, never HMAC).
    public var allowedAlgorithms: Set<String>
    /// Other audiences that may appear beside the client id.
    public var trustedAudiences: Set<String> = []
    /// The current time, from the injected clock.
    public var now: Date
    /// Tolerated clock difference (≤ 5 minutes, docs/sign-in.md).
    public var clockSkew: TimeInterval = 300
    /// The oldest `iat` accepted (24 hours, docs/sign-in.md).
    public var maximumAge: TimeInterval = 24 * 3600

    public init(issuer: String, clientID: String, nonce: String?, allowedAlgorithms: Set<String> = ["RS256"], now: Date) {
        self.issuer = issuer
        self.clientID = clientID
        self.nonce = nonce
        self.allowedAlgorithms = allowedAlgorithms.intersection(Self.asymmetricAlgorithms)
        self.now = now
    }

    /// The signature algorithms authctl verifies. HMAC (`HS*`) and `none` are never among them:
    /// an HMAC "keyed" with a public key is the classic algorithm-confusion attack.
    public static let asymmetricAlgorithms: Set<String> = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"]
}

/// Validates an ID token by the rules of OpenID Connect Core 3.1.3.7, in the order of
/// that section. Each rule is numbered as in the spec; rules that do not apply say why.
public struct IDTokenValidator: Sendable {
    public init() {}

    /// - Parameters:
    ///   - keys: the provider's current JWK Set.
    ///   - refreshKeys: called at most once, when no key has the token's `kid` (key rotation).
    public func validate(
        _ token: String, expectations: IDTokenExpectations, keys: JSONWebKeySet,
        refreshKeys: (@Sendable () async throws -> JSONWebKeySet)? = nil
    ) async throws -> IDTokenClaims {
        guard let (header, claims) = IDTokenClaims.unverifiedParts(of: token) else {
            // Rule 1 (decrypt an encrypted ID token): authctl never registers encryption, so a
            // five-part JWE — like anything that is not a compact JWS — is refused here.
            throw AuthError.idToken("it is not a signed JWT")
        }

        // Rule 2: the issuer must exactly match the issuer the request went to. The caller
        // says which string that is (`IDTokenRules.expectedIDTokenIssuer`): the configured
        // issuer, or for Microsoft the discovery document's `{tenantid}` template filled with the
        // token's `tid`; the comparison is exact either way.
        guard claims["iss"]?.stringValue == expectations.issuer else {
            throw AuthError.idToken("its issuer is not '\(expectations.issuer)'")
        }

        // Rule 3: `aud` must contain the client id, and no audience that is not trusted.
        let audiences: [String]
        switch claims["aud"] {
        case .string(let value): audiences = [value]
        case .array(let values) where values.allSatisfy({ $0.stringValue != nil }): audiences = values.compactMap(\.stringValue)
        default: throw AuthError.idToken("it has no valid audience")
        }
        guard audiences.contains(expectations.clientID) else {
            throw AuthError.idToken("it was issued to another client (audience)")
        }
        guard audiences.allSatisfy({ $0 == expectations.clientID || expectations.trustedAudiences.contains($0) }) else {
            throw AuthError.idToken("it names an audience that is not trusted")
        }

        // Rules 4 and 5: with several audiences `azp` should be present; when present it
        // must equal the client id.
        if let azp = claims["azp"] {
            guard azp.stringValue == expectations.clientID else { throw AuthError.idToken("its authorized party (azp) is another client") }
        }

        // Rule 6: authctl always checks the signature (it never relies on TLS alone).
        // Rule 7: the algorithm must be the one registered / advertised (allow-list; never `none`).
        guard let algorithm = header["alg"]?.stringValue else { throw AuthError.idToken("its header has no algorithm") }
        guard expectations.allowedAlgorithms.contains(algorithm), IDTokenExpectations.asymmetricAlgorithms.contains(algorithm) else {
            throw AuthError.idToken("its signature algorithm '\(Sanitize.text(algorithm, limit: 16))' is not allowed")
        }
        if header["crit"] != nil { throw AuthError.idToken("it uses critical header extensions authctl does not understand") }
        let keyID = header["kid"]?.stringValue
        var candidates = keys.candidates(keyID: keyID, algorithm: algorithm)
        if candidates.isEmpty, let refreshKeys {
            candidates = try await refreshKeys().candidates(keyID: keyID, algorithm: algorithm)
        }
        guard !candidates.isEmpty else {
            throw AuthError.idToken("no key of the provider matches its key id and algorithm")
        }
        var verified = false
        // jwt-kit checks the signature with each candidate key, parsed once per key set.
        for key in candidates where await key.verifier.verifies(token, algorithm: algorithm) {
            verified = true
            break
        }
        guard verified else { throw AuthError.idToken("its signature is not valid") }

        // Rule 8: MAC-based algorithms (client secret as key) are never accepted (see rule 7).

        // `sub` must be present: it is half of the identity key.
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else { throw AuthError.idToken("it has no subject") }

        // Rule 9: the current time must be before `exp` (with the allowed skew). `exp` must be a number.
        guard case .number(let exp) = claims["exp"] else { throw AuthError.idToken("its expiry (exp) is missing or not a number") }
        guard expectations.now.timeIntervalSince1970 < exp + expectations.clockSkew else {
            throw AuthError.idToken("it has expired")
        }

        // Rule 10: `iat` must be a number, not in the future, and not older than 24 hours.
        guard case .number(let iat) = claims["iat"] else { throw AuthError.idToken("its issue time (iat) is missing or not a number") }
        let now = expectations.now.timeIntervalSince1970
        guard iat <= now + expectations.clockSkew else {
            throw AuthError.idToken("it was issued in the future (check this machine's clock)")
        }
        guard iat >= now - expectations.maximumAge - expectations.clockSkew else { throw AuthError.idToken("it was issued too long ago") }

        // `nbf` (RFC 7519 §4.1.5), when present, must be a number and not in the future.
        if let nbf = claims["nbf"] {
            guard case .number(let value) = nbf else { throw AuthError.idToken("its not-before time (nbf) is not a number") }
            guard value <= now + expectations.clockSkew else { throw AuthError.idToken("it is not valid yet (nbf)") }
        }

        // Rule 11: the nonce must equal the one sent in the authorization request.
        if let expected = expectations.nonce {
            guard let nonce = claims["nonce"]?.stringValue, constantTimeEquals(nonce, expected) else {
                throw AuthError.idToken("its nonce does not match the sign-in request (possible replay)")
            }
        }

        // Rule 12 (`acr`) and rule 13 (`auth_time` with `max_age`): authctl requests neither,
        // so neither is checked.
        return IDTokenClaims(raw: claims)
    }
}
