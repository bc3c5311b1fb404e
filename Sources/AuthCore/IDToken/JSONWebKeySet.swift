/// One public key of a provider's JWK Set (RFC 7517), kept as its JSON so that jwt-kit
/// can build the verifier from exactly what the provider published.
public struct JSONWebKey: Sendable, Equatable {
    /// `kid`.
    public let keyID: String?
    /// `kty`: `RSA` or `EC` (no other type verifies an algorithm authctl allows).
    public let keyType: String
    /// `alg`, when the provider pins one.
    public let algorithm: String?
    /// `use`: `sig` or `enc`.
    public let use: String?
    /// The whole JWK as published.
    public let json: [String: JSONValue]
    /// Verifies signatures with this key: it parses the key once, for every token the set checks.
    let verifier: JSONWebKeyVerifier

    init(keyID: String?, keyType: String, algorithm: String?, use: String?, json: [String: JSONValue]) {
        self.keyID = keyID
        self.keyType = keyType
        self.algorithm = algorithm
        self.use = use
        self.json = json
        verifier = JSONWebKeyVerifier(json: json)
    }

    /// Two keys are equal when they were published the same (the verifier follows from that).
    public static func == (lhs: JSONWebKey, rhs: JSONWebKey) -> Bool {
        lhs.keyID == rhs.keyID && lhs.keyType == rhs.keyType && lhs.algorithm == rhs.algorithm && lhs.use == rhs.use
            && lhs.json == rhs.json
    }

    /// Whether this key may verify a signature made with `algorithm` (JWA, RFC 7518 §3.1):
    /// the key type must fit the algorithm family, and a key that pins `alg` only serves that.
    public func canVerify(_ algorithm: String) -> Bool {
        if use != nil, use != "sig" { return false }
        if let pinned = self.algorithm, pinned != algorithm { return false }
        switch keyType {
        case "RSA": return algorithm.hasPrefix("RS") || algorithm.hasPrefix("PS")
        case "EC": return algorithm.hasPrefix("ES")
        default: return false
        }
    }
}

/// A JWK Set (RFC 7517 §5). Keys that cannot be used (unknown type, private parts,
/// missing members) are skipped, never fatal (docs/security.md). Each key is parsed once per set,
/// on the first token that needs it, and kept for the tokens after it.
public struct JSONWebKeySet: Sendable, Equatable {
    public var keys: [JSONWebKey]

    public init(keys: [JSONWebKey]) { self.keys = keys }

    /// Parses a JWK Set document; nil when it is not one.
    public init?(data: Data) {
        guard let object = JSONValue.object(from: data), let entries = object["keys"]?.arrayValue else { return nil }
        keys = entries.compactMap { entry -> JSONWebKey? in
            guard let json = entry.objectValue, let keyType = json["kty"]?.stringValue else { return nil }
            // A published private key is a provider bug; never use such a key.
            guard json["d"] == nil else { return nil }
            let required: [String] =
                switch keyType {
                case "RSA": ["n", "e"]
                case "EC": ["crv", "x", "y"]
                default: ["unsupported"]
                }
            guard required.allSatisfy({ json[$0]?.stringValue != nil }) else { return nil }
            return JSONWebKey(
                keyID: json["kid"]?.stringValue, keyType: keyType,
                algorithm: json["alg"]?.stringValue, use: json["use"]?.stringValue, json: json)
        }
    }

    /// The keys that may verify a token with this `kid` and `alg`. Without a `kid`, every
    /// key that fits the algorithm is a candidate (providers with one key omit it).
    public func candidates(keyID: String?, algorithm: String) -> [JSONWebKey] {
        keys.filter { key in
            guard key.canVerify(algorithm) else { return false }
            guard let keyID else { return true }
            return key.keyID == keyID
        }
    }
}
