/// The one table of the keystore record's keys (docs/keystore.md, docs/keystore.schema.json):
/// for each object of a user's record and of `sealing`, every key it may hold, its JSON type,
/// whether it is required, and whether the token front may answer a record that holds it. The
/// front's reader (CachedRecord.swift, CachedSealing.swift) takes a key only through
/// `take(_:in:seen:)` and checks required keys with `hasRequired`; the full program's
/// (AuthCore's KeystoreRecord+Reading.swift) reads every key by its type here (`index(of:in:)`);
/// KeystoreRecordKeysTests holds the table to `KeystoreRecord`'s keys (what `JSONEncoder`
/// writes), to the schema, and to what both readers read.
public enum KeystoreRecordKeys {
    public enum Value: Equatable, Sendable {
        case string, bool, integer, strings
        /// `YYYY-MM-DDTHH:MM:SSZ` (`KeystoreRecordReader.seconds`).
        case date
        /// A JSON object; an array of objects; an object of objects (keyed by a name).
        case object, objects, objectMap
    }

    public struct Key: Equatable, Sendable {
        public let name: String
        public let value: Value
        public let required: Bool
        /// Whether the front answers a record holding it (else it hands over).
        public let answered: Bool

        init(_ name: String, _ value: Value, required: Bool = false, answered: Bool = true) {
            self.name = name
            self.value = value
            self.required = required
            self.answered = answered
        }
    }

    /// `KeystoreRecord.User` (`kind` is taken only as `person`).
    public static let user: [Key] = [
        Key("uid", .string, required: true), Key("email", .string), Key("emailVerified", .bool, required: true),
        Key("displayName", .string), Key("photoURL", .string), Key("createdAt", .date, required: true),
        Key("lastSignInAt", .date, required: true), Key("lastAuthAt", .date, required: true), Key("lastProviderId", .string),
        Key("providerData", .objects, required: true), Key("kind", .string), Key("backend", .object, answered: false),
        Key("resourceGrants", .objects),
    ]

    /// `KeystoreRecord.ResourceGrant` (`users[].resourceGrants[]`): checked and dropped — the
    /// front answers for a user's identities; a grant's own token is the full program's.
    public static let resourceGrant: [Key] = [
        Key("resource", .string, required: true), Key("issuer", .string, required: true), Key("providerId", .string, required: true),
        Key("grantedAt", .date, required: true), Key("tokens", .object), Key("viaProviderId", .string), Key("viaTokenType", .string),
        Key("refreshTokenOf", .string),
    ]

    /// `KeystoreRecord.Identity`.
    public static let identity: [Key] = [
        Key("providerId", .string, required: true), Key("issuer", .string, required: true),
        Key("federatedId", .string, required: true), Key("profile", .object, required: true), Key("linkedAt", .date, required: true),
        Key("tokens", .object), Key("workload", .object, answered: false),
    ]

    /// `KeystoreRecord.Profile`.
    public static let profile: [Key] = [
        Key("email", .string), Key("emailVerified", .bool, required: true), Key("displayName", .string), Key("photoURL", .string),
        Key("isPrivateEmail", .bool),
    ]

    /// `KeystoreRecord.Tokens` (`sealed`: base64 text).
    public static let tokens: [Key] = [
        Key("accessToken", .string), Key("tokenType", .string, required: true), Key("expiresAt", .date),
        Key("refreshToken", .string), Key("idToken", .string), Key("scopes", .strings, required: true),
        Key("additionalTokens", .objectMap), Key("needsSignInSince", .date), Key("sealed", .string),
        Key("dpopKey", .string, answered: false), Key("derivedCredentials", .objectMap, answered: false), Key("egress", .object),
        Key("authorizationDetails", .objects, answered: false),
    ]

    /// `KeystoreRecord.ScopedToken` (`additionalTokens`' values).
    public static let scopedToken: [Key] = [
        Key("accessToken", .string, required: true), Key("tokenType", .string, required: true), Key("expiresAt", .date),
        Key("scopes", .strings, required: true),
    ]

    /// `KeystoreRecord.Egress`.
    public static let egress: [Key] = [Key("issuer", .string, required: true), Key("origins", .strings, required: true)]

    /// The top-level `sealing` (`KeystoreSealing`): the front answers a key file's alone.
    public static let sealing: [Key] = [
        Key("cipher", .string, required: true), Key("keySource", .string, required: true), Key("wrappedKey", .string, required: true),
        Key("keyCheck", .string, required: true), Key("kdf", .object, answered: false), Key("keyringItem", .string),
        Key("keyFile", .string),
    ]

    #if !AUTHCTL_FRONT
        // The objects only the full program reads (the front hands a record holding one over):
        // not compiled into the front, where their strings would cost every start its relocations
        // (0.6 K instructions, bench/README.md).

        /// `KeystoreRecord.Identity.workload` (`kind` `workload`: the front hands the user over).
        public static let workload: [Key] = [
            Key("clientId", .string, required: true), Key("tenant", .string), Key("scopes", .strings, required: true),
            Key("clientSecretEnv", .string), Key("clientSecretFile", .string), Key("certificateFile", .string),
            Key("federatedTokenFile", .string), Key("federatedTokenEnv", .string), Key("federatedTokenSource", .string),
            Key("federatedAudience", .string), Key("assertionAlgorithm", .string), Key("grant", .string),
        ]

        /// `KeystoreRecord.Backend` (a Firebase user's `backend`: the front hands it over).
        public static let backend: [Key] = [
            Key("kind", .string, required: true), Key("projectId", .string, required: true), Key("tenantId", .string),
            Key("session", .object), Key("emulator", .string),
        ]

        /// `KeystoreRecord.DerivedCredential` (`derivedCredentials`' values: the front hands them over).
        public static let derivedCredential: [Key] = [
            Key("kind", .string, required: true), Key("expiresAt", .date, required: true), Key("token", .string),
            Key("tokenType", .string), Key("issuedTokenType", .string), Key("scopes", .strings), Key("accessKeyId", .string),
            Key("secretAccessKey", .string), Key("sessionToken", .string), Key("assumedRoleArn", .string),
        ]

        /// `KeystoreSealing.Scrypt` (`sealing.kdf`, a passphrase's: the front hands it over).
        public static let scrypt: [Key] = [
            Key("algorithm", .string, required: true), Key("salt", .string, required: true), Key("n", .integer, required: true),
            Key("r", .integer, required: true), Key("p", .integer, required: true),
        ]
    #endif

    /// The index of `name` in `keys` when the front answers for it and it has not been seen
    /// in this object (then noted); nil for an unknown, unanswered or repeated key.
    public static func take(_ name: String, in keys: [Key], seen: inout SeenKeys) -> Int? {
        var index = 0
        while index < keys.count {
            if keys[index].name == name {
                guard keys[index].answered, seen.first(index) else { return nil }
                return index
            }
            index += 1
        }
        return nil
    }

    /// The index of `name` in `keys`, answered by the front or not; nil for an unknown key.
    public static func index(of name: String, in keys: [Key]) -> Int? {
        var index = 0
        while index < keys.count {
            if keys[index].name == name { return index }
            index += 1
        }
        return nil
    }

    /// Whether every required key of `keys` was seen.
    public static func hasRequired(_ keys: [Key], _ seen: SeenKeys) -> Bool {
        var index = 0
        while index < keys.count {
            if keys[index].required, !seen.has(index) { return false }
            index += 1
        }
        return true
    }
}
