/// What `tokens.sealed` holds once opened: every secret of a record, as JSON.
struct SealedSecrets: Codable, Equatable {
    var accessToken: String?
    var refreshToken: String?
    var idToken: String?
    var additionalTokens: [String: KeystoreRecord.ScopedToken]?
    /// A DPoP-bound session's key.
    var dpopKey: String?
    /// A pending credential's ID-token claims (they hold the nonce).
    var claims: [String: JSONValue]?
    /// A Firebase pending credential's `pendingToken`.
    var pendingToken: String?
    /// Format 3: the readable fields beside the secrets, as they were sealed. Opening compares
    /// them with the file's: a later expiry, other scopes, another pending credential's
    /// profile or expiry, written without the key, make the value refuse to open.
    var bound: Bound?
    /// Exchanged tokens and cloud credentials (docs/cloud.md).
    var derivedCredentials: [String: KeystoreRecord.DerivedCredential]? = nil

    struct Bound: Codable, Equatable {
        /// The readable tokens (`tokenType`, `expiresAt`, `scopes`).
        var tokens: KeystoreRecord.Tokens?
        /// A pending credential's whole readable record.
        var pending: KeystoreRecord.PendingCredential?
    }
}

/// A sealed value that does not open with the data key: tampered with, or moved from
/// another record.
struct SealedValueRefused: Error {}

extension KeystoreRecord.Tokens {
    /// The readable part alone: no secret, nothing sealed.
    var readable: KeystoreRecord.Tokens {
        var tokens = self
        tokens.accessToken = nil
        tokens.refreshToken = nil
        tokens.idToken = nil
        tokens.additionalTokens = nil
        tokens.dpopKey = nil
        tokens.derivedCredentials = nil
        tokens.sealed = nil
        return tokens
    }

    /// Whether the secrets are where a file of this kind keeps them: in a sealed keystore
    /// every one under `sealed` (nothing beside it), in a plaintext one nothing sealed.
    func isShaped(sealed: Bool) -> Bool {
        // A DPoP key that is not one is damage, refused like any: never dropped at the next write.
        guard dpopKey.map({ DPoPKey(storedForm: $0) != nil }) ?? true else { return false }
        return sealed ? self.sealed != nil && self == readable.with(sealed: self.sealed) : self.sealed == nil
    }

    private func with(sealed: String?) -> KeystoreRecord.Tokens {
        var tokens = self
        tokens.sealed = sealed
        return tokens
    }

    /// These tokens with their secrets (and `claims`, for a pending credential) sealed at
    /// `place`, bound to the readable fields (`bound`; by default the tokens' own).
    func sealing(
        claims: [String: JSONValue]? = nil, pendingToken: String? = nil, bound: SealedSecrets.Bound? = nil, with key: DataKey,
        at place: SealedPlace
    ) throws -> KeystoreRecord.Tokens {
        let secrets = SealedSecrets(
            accessToken: accessToken, refreshToken: refreshToken, idToken: idToken, additionalTokens: additionalTokens, dpopKey: dpopKey,
            claims: claims,
            pendingToken: pendingToken, bound: bound ?? SealedSecrets.Bound(tokens: readable), derivedCredentials: derivedCredentials)
        var tokens = readable
        tokens.sealed = try key.seal(try KeystoreFile.secretsEncoder.encode(secrets), place: place)
        return tokens
    }

    /// The sealed secrets at `place` (nothing when not sealed). From format 3 on, the
    /// sealed `bound` must be present; the caller compares it.
    func openedSecrets(with key: DataKey, at place: SealedPlace, version: Int) throws -> SealedSecrets? {
        guard let sealed else { return nil }
        guard let plaintext = key.open(sealed, place: place),
            let secrets = SealedSecrets.fastDecoded(plaintext) ?? (try? KeystoreFile.decoder.decode(SealedSecrets.self, from: plaintext))
        else { throw SealedValueRefused() }
        if version >= KeystoreFile.sealedVersion, secrets.bound == nil { throw SealedValueRefused() }
        if let key = secrets.dpopKey, DPoPKey(storedForm: key) == nil { throw SealedValueRefused() }
        return secrets
    }

    /// These tokens opened: the secrets put back, the readable fields checked against those sealed.
    func opening(with key: DataKey, at place: SealedPlace, version: Int) throws -> KeystoreRecord.Tokens {
        guard let secrets = try openedSecrets(with: key, at: place, version: version) else { return self }
        if let bound = secrets.bound, bound != SealedSecrets.Bound(tokens: readable) { throw SealedValueRefused() }
        return readable.filled(with: secrets)
    }

    /// The readable tokens with the secrets put back.
    func filled(with secrets: SealedSecrets) -> KeystoreRecord.Tokens {
        var tokens = readable
        tokens.accessToken = secrets.accessToken
        tokens.refreshToken = secrets.refreshToken
        tokens.idToken = secrets.idToken
        tokens.additionalTokens = secrets.additionalTokens
        tokens.dpopKey = secrets.dpopKey
        tokens.derivedCredentials = secrets.derivedCredentials
        return tokens
    }
}

extension KeystoreRecord.User {
    /// Whether every token of the record is where a file of this kind keeps it.
    func isShaped(sealed: Bool) -> Bool {
        providerData.allSatisfy { $0.tokens?.isShaped(sealed: sealed) ?? true } && (backend?.session?.isShaped(sealed: sealed) ?? true)
            && (resourceGrants ?? []).allSatisfy { $0.tokens?.isShaped(sealed: sealed) ?? true }
    }

    /// The record sealed in the current format.
    func sealing(with key: DataKey) throws -> KeystoreRecord.User {
        var user = self
        user.providerData = try providerData.map { identity in
            var identity = identity
            identity.tokens = try identity.tokens?.sealing(with: key, at: .identityTokens(uid: uid, identity: identity))
            return identity
        }
        if let backend {
            user.backend?.session = try backend.session?.sealing(with: key, at: .backendSession(uid: uid, backend: backend))
        }
        user.resourceGrants = try resourceGrants?.map { grant in
            var grant = grant
            grant.tokens = try grant.tokens?.sealing(with: key, at: .resourceTokens(uid: uid, grant: grant))
            return grant
        }
        return user
    }

    /// The record opened, as sealed in format `version`.
    func opening(with key: DataKey, version: Int) throws -> KeystoreRecord.User {
        let current = version >= KeystoreFile.sealedVersion
        var user = self
        user.providerData = try providerData.map { identity in
            var identity = identity
            let place =
                current
                ? SealedPlace.identityTokens(uid: uid, identity: identity)
                : SealedPlace.Version2.identityTokens(uid: uid, providerID: identity.providerId)
            identity.tokens = try identity.tokens?.opening(with: key, at: place, version: version)
            return identity
        }
        if let backend {
            let place =
                current ? SealedPlace.backendSession(uid: uid, backend: backend) : SealedPlace.Version2.backendSession(uid: uid)
            user.backend?.session = try backend.session?.opening(with: key, at: place, version: version)
        }
        // Resource grants came with format 3's places: there is no older one to read.
        user.resourceGrants = try resourceGrants?.map { grant in
            var grant = grant
            grant.tokens = try grant.tokens?.opening(with: key, at: .resourceTokens(uid: uid, grant: grant), version: version)
            return grant
        }
        return user
    }
}

extension KeystoreRecord.PendingCredential {
    /// Whether its secrets are where a file of this kind keeps them: sealed, no claims and
    /// no pending token beside them.
    func isShaped(sealed: Bool) -> Bool {
        guard credential.tokens.isShaped(sealed: sealed) else { return false }
        return !sealed || (credential.claims == nil && credential.brokered?.pendingToken == nil)
    }

    /// The record without its secrets, as it stands readable in a sealed file.
    var readable: KeystoreRecord.PendingCredential {
        var pending = self
        pending.credential.tokens = credential.tokens.readable
        pending.credential.claims = nil
        pending.credential.brokered?.pendingToken = nil
        return pending
    }

    func sealing(with key: DataKey) throws -> KeystoreRecord.PendingCredential {
        var pending = readable
        let place = SealedPlace.pendingCredential(handle: handle, credential: credential)
        pending.credential.tokens = try credential.tokens.sealing(
            claims: credential.claims ?? [:], pendingToken: credential.brokered?.pendingToken,
            bound: SealedSecrets.Bound(pending: readable), with: key, at: place)
        return pending
    }

    func opening(with key: DataKey, version: Int) throws -> KeystoreRecord.PendingCredential {
        let place =
            version >= KeystoreFile.sealedVersion
            ? SealedPlace.pendingCredential(handle: handle, credential: credential)
            : SealedPlace.Version2.pendingCredential(handle: handle, providerID: credential.providerId)
        guard let secrets = try credential.tokens.openedSecrets(with: key, at: place, version: version) else { return self }
        if let bound = secrets.bound, bound != SealedSecrets.Bound(pending: readable) { throw SealedValueRefused() }
        var pending = self
        pending.credential.tokens = credential.tokens.filled(with: secrets)
        if let claims = secrets.claims { pending.credential.claims = claims }
        if let pendingToken = secrets.pendingToken { pending.credential.brokered?.pendingToken = pendingToken }
        return pending
    }
}
