import AuthCore
import Crypto
import Foundation
import Testing

@Suite("Sign in with Apple: the client secret")
struct AppleClientSecretTests {
    let key = P256.Signing.PrivateKey()
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let secret = AppleClientSecret(
        teamID: "ABCDE12345", keyID: "XYZ987ABCD", clientID: "com.example.web", audience: "https://appleid.apple.com")

    func parts(_ jwt: String) throws -> (header: [String: JSONValue], claims: [String: JSONValue], signingInput: String, signature: Data) {
        let pieces = jwt.split(separator: ".", omittingEmptySubsequences: false)
        try #require(pieces.count == 3)
        return (
            try #require(Base64URL.decode(pieces[0]).flatMap(JSONValue.object(from:))),
            try #require(Base64URL.decode(pieces[1]).flatMap(JSONValue.object(from:))),
            "\(pieces[0]).\(pieces[1])", try #require(Base64URL.decode(pieces[2]))
        )
    }

    @Test("an ES256 JWT signed with the .p8 key: kid in the header; iss team, sub client, aud issuer, iat now")
    func claims() async throws {
        let jwt = try await secret.make(privateKeyPEM: key.pemRepresentation, now: now)
        let (header, claims, signingInput, signature) = try parts(jwt)
        #expect(header == ["alg": "ES256", "kid": "XYZ987ABCD", "typ": "JWT"], "jwt-kit writes typ")
        #expect(claims["iss"] == "ABCDE12345" && claims["sub"] == "com.example.web" && claims["aud"] == "https://appleid.apple.com")
        #expect(claims["iat"] == .number(now.timeIntervalSince1970))
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(key.publicKey.isValidSignature(ecdsa, for: Data(signingInput.utf8)), "verifies with the key's public half")
        #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(ecdsa, for: Data(signingInput.utf8)))
    }

    @Test("exp is short by default and never more than 15,777,000 s after iat")
    func expiryBound() async throws {
        let short = try parts(try await secret.make(privateKeyPEM: key.pemRepresentation, now: now)).claims
        #expect(short["exp"] == .number(now.timeIntervalSince1970 + AppleClientSecret.lifetime))
        let long = try parts(try await secret.make(privateKeyPEM: key.pemRepresentation, now: now, lifetime: 400 * 86400)).claims
        #expect(long["exp"] == .number(now.timeIntervalSince1970 + 15_777_000))
    }

    @Test("a key that is not a P-256 PEM key is provider-not-configured, without echoing the key")
    func badKey() async {
        // Not a key: PEM armour around text (assembled here, so that no key-shaped block is committed).
        let armour = ["BEGIN", "END"].map { "-----\($0) " + "PRIVATE KEY-----" }
        let garbage = armour[0] + "\nnot-a-key-SECRETMATERIAL\n" + armour[1]
        await #expect { try await self.secret.make(privateKeyPEM: garbage, now: self.now) } throws: {
            let error = $0 as? AuthError
            return error?.code == .providerNotConfigured && error?.message.contains("SECRETMATERIAL") == false
        }
    }
}
