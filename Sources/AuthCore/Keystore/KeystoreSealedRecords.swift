#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `tokens.sealed` holds once opened: every secret of a record, as JSON.
struct SealedSecrets: Codable, Equatable {
    var accessToken: String?
    var refreshToken: String?
    var idToken: String?
    var additionalTokens: [String: KeystoreRecord.ScopedToken]?
    /// A pending credential's ID-token claims (they hold the nonce).
    var claims: [String: JSONValue]?
    /// A Firebase pending credential's `pendingToken`.
    var pendingToken: String?
}

/// A sealed value that does not open with the data key: tampered with, or moved from
/// another record.
struct SealedValueRefused: Error {}

extension KeystoreRecord.Tokens {
    /// These tokens with their secrets (and `claims`, for a pending credential) sealed at `place`.
    func sealing(claims: [String: JSONValue]? = nil, pendingToken: String? = nil, with key: DataKey, at place: SealedPlace) throws
        -> KeystoreRecord.Tokens
    {
        let secrets = SealedSecrets(
            accessToken: accessToken, refreshToken: refreshToken, idToken: idToken, additionalTokens: additionalTokens, claims: claims,
            pendingToken: pendingToken)
        var tokens = self
        tokens.accessToken = nil
        tokens.refreshToken = nil
        tokens.idToken = nil
        tokens.additionalTokens = nil
        tokens.sealed = try key.seal(try KeystoreFile.secretsEncoder.encode(secrets), place: place)
        return tokens
    }

    /// These tokens opened (nothing to do when they are not sealed), and the sealed claims.
    func opening(with key: DataKey, at place: SealedPlace) throws -> (tokens: KeystoreRecord.Tokens, claims: [String: JSONValue]?) {
        let (tokens, claims, _) = try openingAll(with: key, at: place)
        return (tokens, claims)
    }

    /// `opening`, with a Firebase pending credential's `pendingToken`.
    func openingAll(with key: DataKey, at place: SealedPlace) throws
        -> (tokens: KeystoreRecord.Tokens, claims: [String: JSONValue]?, pendingToken: String?)
    {
        guard let sealed else { return (self, nil, nil) }
        guard let plaintext = key.open(sealed, place: place),
            let secrets = try? KeystoreFile.decoder.decode(SealedSecrets.self, from: plaintext)
        else { throw SealedValueRefused() }
        var tokens = self
        tokens.sealed = nil
        tokens.accessToken = secrets.accessToken
        tokens.refreshToken = secrets.refreshToken
        tokens.idToken = secrets.idToken
        tokens.additionalTokens = secrets.additionalTokens
        return (tokens, secrets.claims, secrets.pendingToken)
    }
}

extension KeystoreRecord.User {
    func sealing(with key: DataKey) throws -> KeystoreRecord.User {
        var user = self
        user.providerData = try providerData.map { identity in
            var identity = identity
            identity.tokens = try identity.tokens?.sealing(with: key, at: .identityTokens(uid: uid, providerID: identity.providerId))
            return identity
        }
        user.backend?.session = try backend?.session?.sealing(with: key, at: .backendSession(uid: uid))
        return user
    }

    func opening(with key: DataKey) throws -> KeystoreRecord.User {
        var user = self
        user.providerData = try providerData.map { identity in
            var identity = identity
            identity.tokens = try identity.tokens?.opening(with: key, at: .identityTokens(uid: uid, providerID: identity.providerId)).tokens
            return identity
        }
        user.backend?.session = try backend?.session?.opening(with: key, at: .backendSession(uid: uid)).tokens
        return user
    }
}

extension KeystoreRecord.PendingCredential {
    func sealing(with key: DataKey) throws -> KeystoreRecord.PendingCredential {
        var pending = self
        let place = SealedPlace.pendingCredential(handle: handle, providerID: credential.providerId)
        pending.credential.tokens = try credential.tokens.sealing(
            claims: credential.claims ?? [:], pendingToken: credential.brokered?.pendingToken, with: key, at: place)
        pending.credential.claims = nil
        pending.credential.brokered?.pendingToken = nil
        return pending
    }

    func opening(with key: DataKey) throws -> KeystoreRecord.PendingCredential {
        var pending = self
        let place = SealedPlace.pendingCredential(handle: handle, providerID: credential.providerId)
        let opened = try credential.tokens.openingAll(with: key, at: place)
        pending.credential.tokens = opened.tokens
        if let claims = opened.claims { pending.credential.claims = claims }
        if let pendingToken = opened.pendingToken { pending.credential.brokered?.pendingToken = pendingToken }
        return pending
    }
}
