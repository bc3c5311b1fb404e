import AuthCoreTestSupport
import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import AuthCore

@Suite("JWK Sets: each key is parsed once per set")
struct JSONWebKeySetTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let expectations = IDTokenExpectations(
        issuer: "https://idp.example", clientID: "app", nonce: nil, allowedAlgorithms: ["RS256", "PS256"],
        now: Date(timeIntervalSince1970: 1_790_000_000))

    func claims(_ subject: String) -> JSONValue {
        .object([
            "iss": "https://idp.example", "sub": .string(subject), "aud": "app",
            "exp": .number(now.timeIntervalSince1970 + 600), "iat": .number(now.timeIntervalSince1970 - 10),
        ])
    }

    /// The RSA key a signer publishes, without its `kid` (as a provider with one key publishes it).
    func publishedKey(_ signer: TestTokenSigner, dropping members: [String] = ["kid"]) throws -> JSONValue {
        let keys = try #require(signer.jwks.objectValue?["keys"]?.arrayValue)
        var key = try #require(keys.compactMap(\.objectValue).first { $0["kty"] == "RSA" })
        for member in members { key.removeValue(forKey: member) }
        return .object(key)
    }

    func keySet(_ keys: [JSONValue]) throws -> JSONWebKeySet {
        try #require(JSONWebKeySet(data: JSONEncoder().encode(JSONValue.object(["keys": .array(keys)]))))
    }

    @Test("one set verifies many tokens without kid, trying both keys for each, and parses each key once")
    func parsedOncePerSet() async throws {
        let first = try TestTokenSigner()
        let second = try TestTokenSigner()
        // The second signer's key is listed first, so its tokens match the first candidate
        // and the first signer's match only the second.
        let keys = try keySet([publishedKey(second), publishedKey(first)])
        for round in 0..<8 {
            for signer in [first, second] {
                let token = signer.sign(claims: claims("user-\(round)"), header: ["kid": .null])
                let validated = try await IDTokenValidator().validate(token, expectations: expectations, keys: keys)
                #expect(validated.subject == "user-\(round)")
            }
        }
        for key in keys.keys {
            #expect(await key.verifier.parseCount == 1, "each key parsed once for 16 tokens, not once per token or candidate")
        }
    }

    @Test("a key without a pinned alg verifies RS256 and PS256 tokens one after the other")
    func algorithmPerToken() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let primitives = try key.publicKey.getKeyPrimitives()
        let keys = try keySet([
            .object([
                "kty": "RSA", "n": .string(Base64URL.encode(primitives.modulus)), "e": .string(Base64URL.encode(primitives.publicExponent)),
            ])
        ])
        for (algorithm, padding) in [("RS256", _RSA.Signing.Padding.insecurePKCS1v1_5), ("PS256", .PSS), ("RS256", .insecurePKCS1v1_5)] {
            let input =
                TestTokenSignerSegments.encode(.object(["alg": .string(algorithm), "typ": "JWT"])) + "."
                + TestTokenSignerSegments.encode(claims("u"))
            let signature = try key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: padding)
            let token = input + "." + Base64URL.encode(signature.rawRepresentation)
            let validated = try await IDTokenValidator().validate(token, expectations: expectations, keys: keys)
            #expect(validated.subject == "u", "\(algorithm)")
        }
        #expect(await keys.keys[0].verifier.parseCount == 1)
    }

    @Test("a key that does not parse stays in the set and verifies nothing")
    func unparsableKey() async throws {
        let keys = try keySet([.object(["kty": "RSA", "kid": "short", "n": "AQAB", "e": "AQAB"])])
        #expect(keys.keys.map { $0.keyID } == ["short"])
        #expect(await keys.keys[0].verifier.verifies("a.b.c", algorithm: "RS256") == false)
        #expect(await keys.keys[0].verifier.verifies("a.b.c", algorithm: "PS256") == false)
        #expect(await keys.keys[0].verifier.parseCount == 1)
    }
}
