/// The answer the token front gives from a current user's record it has read (and opened):
/// `TokenRefresh.select` (the provider asked, else the last sign-in's, else the first), the
/// token asked for — a bearer access token, or the ID token by its `exp` — valid for more than
/// `--min-ttl`, and the bytes `TokenInvocation.printed` prints for it. Nil whenever the full
/// program might do anything else.
public enum CachedTokenAnswer {
    /// The bytes printed for `request` from `user` at `now` (seconds since 1970).
    public static func bytes(_ request: CachedTokenRequest, user: CachedUser, now: Double) -> [UInt8]? {
        if request.resource != nil { return CachedResourceAnswer.bytes(request, user: user, now: now) }
        let providerID = chosenProvider(asked: request.provider, last: user.lastProviderId, first: user.providerData.first?.providerId)
        guard let identity = user.providerData.first(where: { $0.providerId == providerID }), let tokens = identity.tokens else {
            return nil
        }
        let token: String
        let expiresAt: Double?
        if request.printsIDToken {
            // The ID token, valid until its `exp` (read as the core reads it; a token whose expiry
            // the reader is unsure of, or without one, is the full program's).
            guard let idToken = tokens.idToken, let known = IDTokenExpiryReader.expirySeconds(of: idToken), let expiry = known,
                isValidWithSpare(expiry, minimumTTL: request.minimumTTL, now: now)
            else { return nil }
            token = idToken
            expiresAt = expiry
        } else {
            guard let accessToken = tokens.accessToken, isBearer(tokens.tokenType),
                isValidWithSpare(tokens.expiresAt, minimumTTL: request.minimumTTL, now: now)
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

    /// The identity a token is asked of (`TokenRefresh.select`): the provider asked, else the
    /// last sign-in's, else the first linked ("": none, which no identity has).
    @inline(__always)
    public static func chosenProvider(asked: String?, last: String?, first: @autoclosure () -> String?) -> String {
        asked ?? last ?? first() ?? ""
    }

    /// Whether `tokenType` is `DPoP` (RFC 9449), in any case of its ASCII letters: the token is
    /// bound to a key (`TokenSet.isDPoPBound`; no other text lowercases to `dpop`).
    public static func isDPoP(_ tokenType: String) -> Bool {
        let bytes = tokenType.utf8
        guard bytes.count == 4 else { return false }
        return zip(bytes, "dpop".utf8).allSatisfy { byte, lower in (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) == lower }
    }

    /// A bearer token the front prints: not DPoP; a type of any but ASCII is the full program's.
    public static func isBearer(_ tokenType: String) -> Bool {
        tokenType.utf8.allSatisfy { $0 < 0x80 } && !isDPoP(tokenType)
    }

    /// Whether a token that expires at `expiresAt` is still valid `minimumTTL` seconds from
    /// `now` (`TokenSet.isValid(at:minimumTTL:)`); both in seconds since any one epoch. A
    /// token whose lifetime is unknown counts as valid (nothing better can be known offline).
    public static func isValid(_ expiresAt: Double?, minimumTTL: Double, now: Double) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt - now > minimumTTL
    }

    /// `isValid` with a second to spare, for the front: a token that expires within a second
    /// of the bound is the full program's to judge (it runs a moment later).
    public static func isValidWithSpare(_ expiresAt: Double?, minimumTTL: Int, now: Double) -> Bool {
        isValid(expiresAt, minimumTTL: Double(minimumTTL) + 1, now: now)
    }
}

/// What a uid may be, wherever one arrives — the keystore, an export being imported, a
/// Firebase answer: ASCII letters, digits, `-` and `_`, at most 128. A uid is a plain word on
/// a command line (`users use UID`) and in a shell's completion, never shell syntax or a
/// terminal escape. authctl mints 28 characters; Firebase's own uids may be shorter.
public enum UIDSyntax {
    public static let maximumLength = 128
    /// The uids of an export `users import` takes: authctl's own (at least 20 characters).
    public static let exportedLengths = 20...maximumLength

    public static func isUID(_ value: String, lengths: ClosedRange<Int> = 1...maximumLength) -> Bool {
        let bytes = value.utf8
        return lengths.contains(bytes.count)
            && bytes.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F
            }
    }
}
