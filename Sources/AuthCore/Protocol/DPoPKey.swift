import Crypto

/// The key a DPoP-bound identity proves possession of (RFC 9449): an ES256 (P-256) key pair
/// made for one identity at its sign-in, kept with its tokens in the keystore (sealed with
/// them) and never printed, exported or sent — only its public half travels, in each proof's
/// header, and its RFC 7638 thumbprint, as `dpop_jkt` (docs/security.md).
///
/// Its description names the thumbprint alone, so a key that reaches a log or an error by
/// mistake shows nothing secret.
public struct DPoPKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let key: P256.Signing.PrivateKey
    /// `x` and `y` of the public key, base64url (RFC 7518 §6.2.1).
    let x: String
    let y: String
    /// The RFC 7638 thumbprint of the public key: `dpop_jkt`, and the `cnf.jkt` a bound token carries.
    public let thumbprint: String

    /// The key of its 32-byte private scalar; nil for bytes that are not one (zero, or not
    /// below the curve's order).
    public init?(rawRepresentation bytes: some ContiguousBytes) {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: bytes) else { return nil }
        self.key = key
        let point = key.publicKey.rawRepresentation  // x ‖ y, 32 bytes each
        x = Base64URL.encode(point.prefix(32))
        y = Base64URL.encode(point.suffix(32))
        thumbprint = JWKThumbprint.p256(key.publicKey)
    }

    /// A fresh key from the random source (32 bytes drawn until they make a valid scalar:
    /// all but a 2^-32 share of draws do at once).
    public static func generate(using random: any RandomSource) -> DPoPKey {
        while true {
            if let key = DPoPKey(rawRepresentation: random.bytes(count: 32)) { return key }
        }
    }

    /// The private scalar, for the keystore alone (base64url).
    var storedForm: String { Base64URL.encode(key.rawRepresentation) }

    /// The key as the keystore holds it; nil when the text is not one.
    init?(storedForm text: String) {
        guard let bytes = Base64URL.decode(text), bytes.count == 32 else { return nil }
        self.init(rawRepresentation: bytes)
    }

    public static func == (lhs: DPoPKey, rhs: DPoPKey) -> Bool {
        constantTimeEquals(lhs.storedForm, rhs.storedForm)
    }

    public var description: String { "DPoP key \(thumbprint)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["thumbprint": thumbprint]) }

    /// A DPoP proof (RFC 9449 §4.2) for one request: `typ` `dpop+jwt`, `alg` ES256, the
    /// public key as `jwk`; `jti`, `htm`, `htu` (the URL without query or fragment, §4.3),
    /// `iat`, and `ath` (the access token's SHA-256, §4.2) when a token is presented, `nonce`
    /// when the server gave one (§8).
    public func proof(method: String, url: URL, now: Date, jti: String, nonce: String? = nil, accessToken: String? = nil) throws
        -> String
    {
        let header = #"{"alg":"ES256","jwk":{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"},"typ":"dpop+jwt"}"#
        var claims: [(String, String)] = []
        if let accessToken { claims.append(("ath", JSONText.string(Base64URL.encode(SHA256.hash(data: Data(utf8: accessToken)))))) }
        claims.append(("htm", JSONText.string(method)))
        claims.append(("htu", JSONText.string(Self.htu(url))))
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite, seconds >= 0, seconds < 1e12 else { throw AuthError.internalError("the clock is out of range") }
        claims.append(("iat", String(Int64(seconds))))
        claims.append(("jti", JSONText.string(jti)))
        if let nonce { claims.append(("nonce", JSONText.string(nonce))) }
        let payload = "{" + claims.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        let input = Base64URL.encode(Data(utf8: header)) + "." + Base64URL.encode(Data(utf8: payload))
        let signature = try key.signature(for: Data(utf8: input))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// `htu`: scheme, authority and path — no query, no fragment (RFC 9449 §4.2, §4.3).
    static func htu(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? url.absoluteString
    }
}

/// JSON text of the few values authctl writes by hand.
enum JSONText {
    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
