/// One public key of a provider's JWK Set (RFC 7517), kept as its JSON so that jwt-kit
/// can build the verifier from exactly what the provider published.
public struct JSONWebKey: Sendable, Equatable {
    /// `kid`.
    public var keyID: String?
    /// `kty`: `RSA`, `EC` or `OKP`.
    public var keyType: String
    /// `alg`, when the provider pins one.
    public var algorithm: String?
    /// `use`: `sig` or `enc`.
    public var use: String?
    /// The whole JWK as published.
    public var json: [String: JSONValue]

    /// Whether this key may verify a signature made with `algorithm` (JWA, RFC 7518 §3.1):
    /// the key type must fit the algorithm family, and a key that pins `alg` only serves that.
    public func canVerify(_ algorithm: String) -> Bool {
        if use != nil, use != "sig" { return false }
        if let pinned = self.algorithm, pinned != algorithm { return false }
        switch keyType {
        case "RSA": return algorithm.hasPrefix("RS") || algorithm.hasPrefix("PS")
        case "EC": return algorithm.hasPrefix("ES")
        case "OKP": return algorithm == "EdDSA"
        default: return false
        }
    }
}

/// A JWK Set (RFC 7517 §5). Keys that cannot be used (unknown type, private parts,
/// missing members) are skipped, never fatal (SECURITY.md).
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
                case "OKP": ["crv", "x"]
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
