import JWTKit

/// One key of a JWK Set made ready for jwt-kit to verify signatures with: its public key is
/// parsed once, when the first token asks for it, and the key collection for each algorithm
/// is made once; every later token checked against the same key set (a token without `kid`
/// tries each key that fits) uses them again.
actor JSONWebKeyVerifier {
    /// The public key, in jwt-kit's types; the curve comes from `crv` (RFC 7518 §6.2.1.1).
    enum PublicKey: Sendable {
        case rsa(Insecure.RSA.PublicKey)
        case p256(ES256PublicKey)
        case p384(ES384PublicKey)
        case p521(ES512PublicKey)
    }

    private let json: [String: JSONValue]
    /// nil: not parsed yet; `.some(nil)`: parsed, and not a key jwt-kit can use.
    private var parsed: PublicKey??
    private var collections: [String: Task<JWTKeyCollection?, Never>] = [:]
    /// How many times the key was parsed: at most once per key set (a test counts it).
    private(set) var parseCount = 0

    init(json: [String: JSONValue]) { self.json = json }

    /// Whether `token`'s signature is valid with this key under `algorithm` (the token's
    /// `alg`, already allowed and fitting the key's type).
    func verifies(_ token: String, algorithm: String) async -> Bool {
        guard let collection = await collection(for: algorithm) else { return false }
        do {
            _ = try await collection.verify(token, as: SignatureOnly.self)
            return true
        } catch {
            return false
        }
    }

    /// The key collection that verifies `algorithm` with this key, made on the first call.
    /// A task, so that two tokens checked at once never make it twice.
    private func collection(for algorithm: String) async -> JWTKeyCollection? {
        if let made = collections[algorithm] { return await made.value }
        let key = publicKey()
        let making = Task { () -> JWTKeyCollection? in
            let collection = JWTKeyCollection()
            switch (key, algorithm) {
            case (.rsa(let key), "RS256"): await collection.add(rsa: key, digestAlgorithm: .sha256)
            case (.rsa(let key), "RS384"): await collection.add(rsa: key, digestAlgorithm: .sha384)
            case (.rsa(let key), "RS512"): await collection.add(rsa: key, digestAlgorithm: .sha512)
            case (.rsa(let key), "PS256"): await collection.add(pss: key, digestAlgorithm: .sha256)
            case (.rsa(let key), "PS384"): await collection.add(pss: key, digestAlgorithm: .sha384)
            case (.rsa(let key), "PS512"): await collection.add(pss: key, digestAlgorithm: .sha512)
            case (.p256(let key), "ES256"): await collection.add(ecdsa: key)
            case (.p384(let key), "ES384"): await collection.add(ecdsa: key)
            case (.p521(let key), "ES512"): await collection.add(ecdsa: key)
            default: return nil
            }
            return collection
        }
        collections[algorithm] = making
        return await making.value
    }

    private func publicKey() -> PublicKey? {
        if let parsed { return parsed }
        parseCount += 1
        let key = Self.parse(json)
        parsed = .some(key)
        return key
    }

    /// `n` and `e` of an RSA key, `x` and `y` of an EC key (base64url, RFC 7518 §6). Other
    /// keys verify nothing.
    static func parse(_ json: [String: JSONValue]) -> PublicKey? {
        switch json["kty"]?.stringValue {
        case "RSA":
            guard let n = json["n"]?.stringValue, let e = json["e"]?.stringValue else { return nil }
            return (try? Insecure.RSA.PublicKey(modulus: n, exponent: e)).map(PublicKey.rsa)
        case "EC":
            guard let x = json["x"]?.stringValue, let y = json["y"]?.stringValue else { return nil }
            switch json["crv"]?.stringValue {
            case "P-256": return (try? ES256PublicKey(parameters: (x, y))).map(PublicKey.p256)
            case "P-384": return (try? ES384PublicKey(parameters: (x, y))).map(PublicKey.p384)
            case "P-521": return (try? ES512PublicKey(parameters: (x, y))).map(PublicKey.p521)
            default: return nil
            }
        default:
            return nil
        }
    }
}

/// A payload that only lets jwt-kit check the signature: the claims are checked by
/// `IDTokenValidator`, with the injected clock.
private struct SignatureOnly: JWTPayload {
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
