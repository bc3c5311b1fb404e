import Crypto

/// The top-level `sealing` object of a sealed keystore (format version 2, docs/keystore.md):
/// how the data key is wrapped and a check value of it — never the key. Every secret of the
/// file is an AES-256-GCM ciphertext under that one data key (`DataKey`).
struct KeystoreSealing: Codable, Equatable, Sendable {
    /// What wraps the data key: exactly one.
    enum KeySource: String, Codable, Equatable, Sendable {
        case keyFile, passphrase, keyring
    }

    /// The cipher of every sealed value, and of the wrapped key.
    static let cipherName = "AES-256-GCM"

    var cipher: String
    var keySource: KeySource
    /// The data key sealed under the key-encryption key (from the key file, the passphrase
    /// through `kdf`, or the keyring), base64 of nonce ‖ ciphertext ‖ tag.
    var wrappedKey: String
    /// The first 16 bytes of HMAC-SHA256(data key, "authctl keystore key check"), base64:
    /// tells a wrong key from a damaged file.
    var keyCheck: String
    /// The passphrase's key derivation; only with `passphrase`.
    var kdf: Scrypt?
    /// The keyring item that holds the wrapping key (its `key-id` attribute, random); only with `keyring`.
    var keyringItem: String?
    /// The absolute path of the key file it was sealed with — never the key; only with
    /// `keyFile`, used when no key file is given. Readable and unauthenticated like the rest
    /// of `sealing`: a path planted here opens nothing (the file must be the user's own,
    /// `0600`, and hold the key whose check value matches).
    var keyFile: String?

    /// scrypt's parameters (RFC 7914), as stored. A hostile file must not make a read take
    /// minutes or gigabytes: `checked` bounds them before any derivation.
    struct Scrypt: Codable, Equatable, Sendable {
        var algorithm: String
        var salt: String
        var n: Int
        var r: Int
        var p: Int

        /// What this build writes: 2^15 × 8 × 128 bytes = 32 MiB, a fraction of a second.
        static let standardCost = 15

        /// scrypt with N = 2^`cost` (the standard one unless a caller asks otherwise), r = 8, p = 1.
        static func standard(salt: Data, cost: Int = standardCost) -> Scrypt {
            Scrypt(algorithm: "scrypt", salt: salt.base64EncodedString(), n: 1 << min(max(cost, 10), 20), r: 8, p: 1)
        }

        /// The most a file may ask for: 256 MiB of memory (128·N·r) and 2^24 block mixes (N·r·p).
        static let maximumMemory = 256 << 20
        static let maximumWork = 1 << 24

        /// The salt when the parameters are within bounds; nil when they are not.
        var checkedSalt: Data? {
            guard algorithm == "scrypt", let salt = Data(base64Encoded: salt), (16...64).contains(salt.count) else { return nil }
            guard n >= 1024, n <= 1 << 20, n & (n - 1) == 0, (1...32).contains(r), (1...16).contains(p) else { return nil }
            let (memory, memoryOverflow) = (128 * n).multipliedReportingOverflow(by: r)
            let (work, workOverflow) = (n * r).multipliedReportingOverflow(by: p)
            guard !memoryOverflow, !workOverflow, memory <= Self.maximumMemory, work <= Self.maximumWork else { return nil }
            return salt
        }
    }

    /// A new sealing of `dataKey` under `wrappingKey`.
    init(
        dataKey: DataKey, wrappingKey: SymmetricKey, keySource: KeySource, kdf: Scrypt?, keyringItem: String? = nil, keyFile: String? = nil
    ) throws {
        cipher = Self.cipherName
        self.keyFile = keyFile
        self.keySource = keySource
        self.kdf = kdf
        self.keyringItem = keyringItem
        let box = try AES.GCM.seal(dataKey.bytes, using: wrappingKey, authenticating: Self.wrappingContext(keySource))
        guard let combined = box.combined else { throw AuthError.internalError("AES-GCM gave no combined box") }
        wrappedKey = combined.base64EncodedString()
        keyCheck = dataKey.checkValue.base64EncodedString()
    }

    /// The data key, unwrapped with `wrappingKey` and checked; nil when the key is wrong
    /// (or the file's `sealing` was changed).
    func dataKey(wrappingKey: SymmetricKey) -> DataKey? {
        guard cipher == Self.cipherName, let combined = Data(base64Encoded: wrappedKey),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let bytes = try? AES.GCM.open(box, using: wrappingKey, authenticating: Self.wrappingContext(keySource)),
            bytes.count == 32
        else { return nil }
        let key = DataKey(bytes: bytes)
        guard let check = Data(base64Encoded: keyCheck), check == key.checkValue else { return nil }
        return key
    }

    /// The associated data of the wrapped key: the key source it was wrapped for.
    static func wrappingContext(_ source: KeySource) -> Data { Data(utf8: "authctl keystore data key\u{0}" + source.rawValue) }
}

/// The one random 256-bit key every secret of a sealed keystore is sealed under.
struct DataKey: Sendable, Equatable {
    let bytes: Data

    init(bytes: Data) { self.bytes = bytes }

    /// A new data key from the system's cryptographic random source.
    static func random() -> DataKey {
        DataKey(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
    }

    var symmetricKey: SymmetricKey { SymmetricKey(data: bytes) }

    /// The first 16 bytes of HMAC-SHA256(data key, "authctl keystore key check"). Computed by
    /// `KeyCheckHMAC`, not swift-crypto's generic `HMAC<SHA256>`, whose first use costs the
    /// token hot path more than the rest of a sealed read (issue 24); the bytes are the same.
    var checkValue: Data {
        let key = bytes.withUnsafeBytes { [UInt8]($0) }
        let code = KeyCheckHMAC.sha256(key: key, message: Array("authctl keystore key check".utf8))
        return code.prefix(16).withUnsafeBufferPointer { Data(buffer: $0) }
    }

    /// Seals `plaintext` bound to `place` (associated data): a ciphertext moved to another
    /// record, or another field, does not open. Base64 of nonce ‖ ciphertext ‖ tag.
    func seal(_ plaintext: Data, place: SealedPlace) throws -> String {
        let box = try AES.GCM.seal(plaintext, using: symmetricKey, authenticating: place.associatedData)
        guard let combined = box.combined else { throw AuthError.internalError("AES-GCM gave no combined box") }
        return combined.base64EncodedString()
    }

    /// The plaintext of `sealed` at `place`; nil when it does not open (tampered, moved, or
    /// another key's).
    func open(_ sealed: String, place: SealedPlace) -> Data? {
        guard let combined = Data(base64Encoded: sealed), let box = try? AES.GCM.SealedBox(combined: combined) else { return nil }
        return try? AES.GCM.open(box, using: symmetricKey, authenticating: place.associatedData)
    }
}

/// Where a sealed value sits in the keystore: its associated data.
///
/// Format 3 binds a value to its record and to whose it is: the user, and the identity
/// (provider, issuer, federated id), the Firebase project and service, or the pending
/// credential (handle, provider, issuer, federated id). Format 2 bound it to the user and
/// provider only; it is read, never written.
struct SealedPlace: Equatable, Sendable {
    var label = "authctl keystore v3"
    var parts: [String]

    /// `users[uid].providerData[…].tokens`, format 3.
    static func identityTokens(uid: String, identity: KeystoreRecord.Identity) -> SealedPlace {
        SealedPlace(parts: ["user", uid, "identity", identity.providerId, identity.issuer, identity.federatedId, "tokens"])
    }

    /// `users[uid].resourceGrants[…].tokens` (docs/resources.md). A chained grant's (`login URL
    /// --via`) also names its source — the identity whose token a renewal exchanges, and the
    /// kind of grant asked — so that neither can be changed, added or removed without the key;
    /// an ordinary grant's place is as it always was. A grant that names another's refresh
    /// token (one sign-in for several resources) names that grant in its place too.
    static func resourceTokens(uid: String, grant: KeystoreRecord.ResourceGrant) -> SealedPlace {
        let chain =
            grant.viaProviderId == nil && grant.viaTokenType == nil
            ? [] : ["via", optional(grant.viaProviderId), optional(grant.viaTokenType)]
        let shared = grant.refreshTokenOf.map { ["refreshTokenOf", $0] } ?? []
        return SealedPlace(parts: ["user", uid, "resource", grant.providerId, grant.issuer, grant.resource] + chain + shared + ["tokens"])
    }

    /// `users[uid].backend.session`, format 3: the Firebase session (docs/firebase.md) and where it is sent.
    static func backendSession(uid: String, backend: KeystoreRecord.Backend) -> SealedPlace {
        SealedPlace(
            parts: [
                "user", uid, "backend", backend.kind, backend.projectId, optional(backend.tenantId), optional(backend.emulator), "session",
            ])
    }

    /// `pendingCredentials[handle].credential`, format 3.
    static func pendingCredential(handle: String, credential: KeystoreRecord.Credential) -> SealedPlace {
        SealedPlace(
            parts: [
                "pending", handle, "credential", credential.providerId, credential.issuer, credential.federatedId,
                optional(credential.brokered?.projectId),
            ])
    }

    /// `registrations[providerId]`: a registration access token (docs/resources.md).
    /// With its registration client URI (when one was recorded: builds since the egress binding), which a sealed keystore so binds to it.
    static func registration(providerID: String, clientURI: String? = nil) -> SealedPlace {
        SealedPlace(parts: ["registration", providerID, "registrationAccessToken"] + (clientURI.map { [$0] } ?? []))
    }

    /// `registrations[providerId]`: the client secret the registration issued (docs/resources.md).
    /// Bound to the issuer and client id it was issued for.
    static func registeredClientSecret(providerID: String, issuer: String, clientID: String) -> SealedPlace {
        SealedPlace(parts: ["registration", providerID, "clientSecret", issuer, clientID])
    }

    /// A value that may be absent, told apart from any present one.
    private static func optional(_ value: String?) -> String { value.map { "+" + $0 } ?? "-" }

    /// Format 2's places (read only).
    enum Version2 {
        static let label = "authctl keystore v2"

        static func identityTokens(uid: String, providerID: String) -> SealedPlace {
            SealedPlace(label: label, parts: ["user", uid, providerID, "tokens"])
        }

        static func backendSession(uid: String) -> SealedPlace {
            SealedPlace(label: label, parts: ["user", uid, "backend", "session"])
        }

        static func pendingCredential(handle: String, providerID: String) -> SealedPlace {
            SealedPlace(label: label, parts: ["pending", handle, providerID, "credential"])
        }
    }

    /// Each part length-prefixed (4 bytes, big-endian), after a label of the format: no two
    /// places share their bytes, whatever their uids hold.
    var associatedData: Data {
        var data = Data(utf8: label)
        for part in parts {
            let bytes = Data(utf8: part)
            let count = UInt32(clamping: bytes.count)
            data.append(contentsOf: [UInt8(count >> 24 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)])
            data.append(bytes)
        }
        return data
    }
}
