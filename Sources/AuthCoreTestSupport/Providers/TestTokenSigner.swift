import AuthCore
import Crypto
import Foundation
import _CryptoExtras

/// Signs JWTs for tests with an RSA key generated at test time (never committed), and
/// publishes its JWK Set. Can also sign the way attackers do (`none`, HS256 keyed with
/// the public key, a key that is not published).
public final class TestTokenSigner: @unchecked Sendable {
    public enum Signing: Sendable {
        case rs256
        case none
        /// HS256 with the RSA public key (DER) as the HMAC key: algorithm confusion.
        case hs256WithPublicKey
    }

    private let lock = NSLock()
    private let signingKey: _RSA.Signing.PrivateKey
    private let otherKey: _RSA.Signing.PrivateKey
    private var currentKeyID = "key-1"

    public init() throws {
        let index = Self.pool.nextIndex()
        signingKey = try Self.pool.key(index)
        otherKey = try Self.pool.key(index + 1)
    }

    /// RSA keys made once per test process: a 2048-bit key takes a good part of a second
    /// to generate in a debug build, and the suite makes hundreds of signers. Signers made
    /// one after the other get different keys (two providers of one test never share one);
    /// only signers `size / 2` apart share a key.
    static let pool = KeyPool(size: 8)

    final class KeyPool: @unchecked Sendable {
        private let lock = NSLock()
        private var keys: [Int: _RSA.Signing.PrivateKey] = [:]
        private var counter = 0
        /// One lock per slot, held while its key is made: the tests that start together and
        /// ask for the same slot wait for one key instead of each making their own (at the
        /// start of a run, dozens did, which held every sign-in test for seconds).
        private let making: [NSLock]
        let size: Int

        init(size: Int) {
            self.size = size
            making = (0..<size).map { _ in NSLock() }
        }

        func nextIndex() -> Int {
            lock.withLock {
                defer { counter += 2 }
                return counter
            }
        }

        func key(_ index: Int) throws -> _RSA.Signing.PrivateKey {
            let slot = index % size
            if let key = lock.withLock({ keys[slot] }) { return key }
            return try making[slot].withLock {
                if let key = lock.withLock({ keys[slot] }) { return key }
                let made = try _RSA.Signing.PrivateKey(keySize: .bits2048)
                lock.withLock { keys[slot] = made }
                return made
            }
        }
    }

    /// The `kid` of tokens and of the published key.
    public var keyID: String {
        get { lock.withLock { currentKeyID } }
        set { lock.withLock { currentKeyID = newValue } }
    }

    /// The JWK Set: one unusable key (skipped by a correct client) and the RSA key.
    public var jwks: JSONValue {
        let primitives = try! signingKey.publicKey.getKeyPrimitives()
        return .object([
            "keys": .array([
                .object(["kty": .string("EC"), "crv": .string("P-256"), "kid": .string("unusable-without-y"), "x": .string("AAAA")]),
                .object([
                    "kty": .string("RSA"), "use": .string("sig"), "alg": .string("RS256"), "kid": .string(keyID),
                    "n": .string(Base64URL.encode(primitives.modulus)), "e": .string(Base64URL.encode(primitives.publicExponent)),
                ]),
            ])
        ])
    }

    public var keySet: JSONWebKeySet {
        JSONWebKeySet(data: try! JSONEncoder().encode(jwks))!
    }

    public func sign(claims: JSONValue, signing: Signing = .rs256, unpublishedKey: Bool = false, header extra: [String: JSONValue] = [:])
        -> String
    {
        let algorithm =
            switch signing {
            case .rs256: "RS256"
            case .none: "none"
            case .hs256WithPublicKey: "HS256"
            }
        var fields: [String: JSONValue] = ["alg": .string(algorithm), "kid": .string(keyID), "typ": .string("JWT")]
        fields.merge(extra) { $1 }
        let input = Self.segment(.object(fields)) + "." + Self.segment(claims)
        switch signing {
        case .none:
            return input + "."
        case .hs256WithPublicKey:
            let key = SymmetricKey(data: signingKey.publicKey.derRepresentation)
            return input + "." + Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: key)))
        case .rs256:
            let key = unpublishedKey ? otherKey : signingKey
            let signature = try! key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
            return input + "." + Base64URL.encode(signature.rawRepresentation)
        }
    }

    /// True when `token` is an RS256 JWT signed with this signer's published key (a fake
    /// service verifying a token of this provider, as it would with the JWK Set).
    public func verifies(_ token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Base64URL.decode(parts[2]),
            let header = Base64URL.decode(parts[0]).flatMap(JSONValue.object(from:)), header["alg"] == .string("RS256")
        else { return false }
        let input = Data("\(parts[0]).\(parts[1])".utf8)
        return signingKey.publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
    }

    static func segment(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Base64URL.encode(try! encoder.encode(value))
    }
}
