/// The answer the token front gives from a current user's record it has read (and opened):
/// `TokenRefresh.select` (the provider asked, else the last sign-in's, else the first), the
/// token asked for — a bearer access token, or the ID token by its `exp` — valid for more than
/// `--min-ttl`, and the bytes `TokenInvocation.printed` prints for it. Nil whenever the full
/// program might do anything else.
public enum CachedTokenAnswer {
    /// The bytes printed for `request` from `user` at `now` (seconds since 1970).
    public static func bytes(_ request: CachedTokenRequest, user: CachedUser, now: Double) -> [UInt8]? {
        if request.resource != nil { return CachedResourceAnswer.bytes(request, user: user, now: now) }
        let providerID = request.provider ?? user.lastProviderId ?? user.providerData.first?.providerId ?? ""
        guard let identity = user.providerData.first(where: { $0.providerId == providerID }), let tokens = identity.tokens else {
            return nil
        }
        let token: String
        let expiresAt: Double?
        if request.printsIDToken {
            // The ID token, valid until its `exp` (read as the core reads it; a token whose expiry
            // the reader is unsure of, or without one, is the full program's).
            guard let idToken = tokens.idToken, let known = IDTokenExpiryReader.expirySeconds(of: idToken), let expiry = known,
                isValid(expiry, minimumTTL: request.minimumTTL, now: now)
            else { return nil }
            token = idToken
            expiresAt = expiry
        } else {
            guard let accessToken = tokens.accessToken, isBearer(tokens.tokenType),
                isValid(tokens.expiresAt, minimumTTL: request.minimumTTL, now: now)
            else { return nil }
            token = accessToken
            expiresAt = tokens.expiresAt
        }
        // `TokenInvocation.printed`, for a bearer token (an ID token, or an access token not DPoP-bound).
        switch request.format {
        case .raw: return TokenOutputBytes.bytes(token + "\n")
        case .header: return TokenOutputBytes.bytes("Authorization: Bearer " + token + "\n")
        case .kubectlExec: return TokenOutputBytes.kubectlExecCredential(token: token, expiresAtSeconds: expiresAt)
        case .headersJSON: return TokenOutputBytes.headersJSON(authorization: "Bearer " + token, dpop: nil)
        }
    }

    /// `UIDSyntax.isUID`: 1–128 of `[A-Za-z0-9_-]`.
    public static func isUID(_ uid: String) -> Bool {
        let bytes = uid.utf8
        return !bytes.isEmpty && bytes.count <= 128
            && bytes.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F
            }
    }

    /// Not DPoP (`tokenType.lowercased() != "dpop"`); a type of any but ASCII is the full program's.
    public static func isBearer(_ tokenType: String) -> Bool {
        let bytes = Array(tokenType.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
        let lower = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        return lower != Array("dpop".utf8)
    }

    /// `TokenSet.isValid(at: now, minimumTTL:)`, with a second to spare: a token that expires
    /// within a second of the bound is the full program's to judge (it runs a moment later).
    public static func isValid(_ expiresAt: Double?, minimumTTL: Int, now: Double) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt - now > Double(minimumTTL) + 1
    }
}
