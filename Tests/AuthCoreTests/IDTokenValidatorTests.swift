import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@Suite("ID token validation (OpenID Connect Core 3.1.3.7)")
struct IDTokenValidatorTests {
    let signer: TestTokenSigner
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let issuer = "https://idp.example"
    let clientID = "app"

    init() throws { signer = try TestTokenSigner() }

    var expectations: IDTokenExpectations {
        IDTokenExpectations(issuer: issuer, clientID: clientID, nonce: "n-123", allowedAlgorithms: ["RS256"], now: now)
    }

    func claims(_ change: (inout [String: JSONValue]) -> Void = { _ in }) -> JSONValue {
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string("user-1"), "aud": .string(clientID), "nonce": .string("n-123"),
            "exp": .number(now.timeIntervalSince1970 + 600), "iat": .number(now.timeIntervalSince1970 - 10),
        ]
        change(&claims)
        return .object(claims)
    }

    func validate(_ token: String, _ expectations: IDTokenExpectations? = nil) async throws -> IDTokenClaims {
        try await IDTokenValidator().validate(token, expectations: expectations ?? self.expectations, keys: signer.keySet)
    }

    func expectRefused(_ token: String, _ expectations: IDTokenExpectations? = nil, mentioning text: String) async {
        do {
            _ = try await validate(token, expectations)
            Issue.record("accepted a token that must be refused (\(text))")
        } catch let error as AuthError {
            #expect(error.code == .invalidCredential)
            #expect(error.message.contains(text), "message: \(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("a correct token is accepted and its claims returned")
    func accepted() async throws {
        let result = try await validate(signer.sign(claims: claims()))
        #expect(result.subject == "user-1")
    }

    @Test("rule 2: another issuer is refused")
    func issuerRule() async {
        await expectRefused(signer.sign(claims: claims { $0["iss"] = .string("https://idp.example/") }), mentioning: "issuer")
    }

    @Test("rule 3: a token for another client is refused")
    func audience() async {
        await expectRefused(signer.sign(claims: claims { $0["aud"] = .string("other-app") }), mentioning: "another client")
    }

    @Test("rule 3: an untrusted extra audience is refused")
    func extraAudience() async {
        await expectRefused(
            signer.sign(claims: claims { $0["aud"] = .array([.string(clientID), .string("evil")]) }), mentioning: "not trusted")
    }

    @Test("rule 5: azp naming another client is refused")
    func authorizedParty() async {
        await expectRefused(signer.sign(claims: claims { $0["azp"] = .string("other") }), mentioning: "azp")
    }

    @Test("rule 7: alg none is refused")
    func algNone() async {
        await expectRefused(signer.sign(claims: claims(), signing: .none), mentioning: "not allowed")
    }

    @Test("rule 7: HS256 keyed with the provider's public key is refused (algorithm confusion)")
    func algorithmConfusion() async {
        var lenient = expectations
        lenient.allowedAlgorithms = ["HS256", "RS256"]  // even a provider advertising HS256 cannot enable it
        await expectRefused(signer.sign(claims: claims(), signing: .hs256WithPublicKey), lenient, mentioning: "not allowed")
    }

    @Test("rule 6: a signature from a key that is not published is refused")
    func badSignature() async {
        await expectRefused(signer.sign(claims: claims(), unpublishedKey: true), mentioning: "signature is not valid")
    }

    @Test("rule 6: a tampered payload is refused")
    func tampered() async {
        let token = signer.sign(claims: claims())
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = TestTokenSignerSegments.encode(claims { $0["sub"] = .string("admin") })
        await expectRefused(parts.joined(separator: "."), mentioning: "signature is not valid")
    }

    @Test("an unknown kid refetches the keys once, then succeeds after a key rotation")
    func keyRotation() async throws {
        let stale = signer.keySet
        signer.keyID = "key-2"
        let token = signer.sign(claims: claims())
        let fresh = signer.keySet
        let fetches = Counter()
        let result = try await IDTokenValidator().validate(token, expectations: expectations, keys: stale) {
            fetches.increment()
            return fresh
        }
        #expect(result.subject == "user-1")
        #expect(fetches.value == 1)
    }

    @Test("an unknown kid without a matching key after the refetch is refused")
    func unknownKid() async {
        signer.keyID = "key-1"
        let keys = signer.keySet
        signer.keyID = "nobody-knows"
        let token = signer.sign(claims: claims())
        do {
            _ = try await IDTokenValidator().validate(token, expectations: expectations, keys: keys) { keys }
            Issue.record("accepted")
        } catch let error as AuthError {
            #expect(error.message.contains("no key"))
        } catch { Issue.record("\(error)") }
    }

    @Test("rule 9: an expired token is refused; within the 5-minute skew it is accepted")
    func expiry() async throws {
        await expectRefused(signer.sign(claims: claims { $0["exp"] = .number(now.timeIntervalSince1970 - 301) }), mentioning: "expired")
        _ = try await validate(signer.sign(claims: claims { $0["exp"] = .number(now.timeIntervalSince1970 - 240) }))
    }

    @Test("exp, iat and nbf must be JSON numbers")
    func numericDates() async {
        await expectRefused(
            signer.sign(claims: claims { $0["exp"] = .string("\(Int(now.timeIntervalSince1970 + 600))") }), mentioning: "not a number")
        await expectRefused(
            signer.sign(claims: claims { $0["iat"] = .string("\(Int(now.timeIntervalSince1970))") }), mentioning: "not a number")
        await expectRefused(signer.sign(claims: claims { $0["nbf"] = .string("0") }), mentioning: "not a number")
    }

    @Test("rule 10: an iat more than 24 hours old is refused even when exp is later")
    func oldIssuedAt() async {
        await expectRefused(
            signer.sign(
                claims: claims {
                    $0["iat"] = .number(now.timeIntervalSince1970 - 25 * 3600)
                    $0["exp"] = .number(now.timeIntervalSince1970 + 3600)
                }), mentioning: "too long ago")
    }

    @Test("an iat or nbf in the future beyond the skew is refused")
    func future() async {
        await expectRefused(signer.sign(claims: claims { $0["iat"] = .number(now.timeIntervalSince1970 + 600) }), mentioning: "future")
        await expectRefused(
            signer.sign(claims: claims { $0["nbf"] = .number(now.timeIntervalSince1970 + 600) }), mentioning: "not valid yet")
    }

    @Test("rule 11: a wrong or missing nonce is refused")
    func nonce() async {
        await expectRefused(signer.sign(claims: claims { $0["nonce"] = .string("replayed") }), mentioning: "nonce")
        await expectRefused(signer.sign(claims: claims { $0["nonce"] = nil }), mentioning: "nonce")
    }

    @Test("a token without sub is refused")
    func subject() async {
        await expectRefused(signer.sign(claims: claims { $0["sub"] = nil }), mentioning: "subject")
    }

    @Test("critical header extensions are refused")
    func critical() async {
        await expectRefused(signer.sign(claims: claims(), header: ["crit": .array([.string("exp")])]), mentioning: "critical")
    }

    @Test("something that is not a JWS is refused", arguments: ["", "a.b", "a.b.c.d.e", "not-a-token"])
    func malformed(token: String) async {
        await expectRefused(token, mentioning: "not a signed JWT")
    }

    @Test("unusable keys in a JWK Set are skipped, not fatal")
    func unusableKeys() throws {
        let keys = try #require(
            JSONWebKeySet(
                data: Data(
                    #"{"keys":[{"kty":"oct","k":"abc"},{"kty":"RSA","n":"AQAB"},{"kty":"RSA","n":"AQAB","e":"AQAB","d":"secret"},{"kty":"RSA","kid":"ok","n":"AQAB","e":"AQAB"}]}"#
                        .utf8)))
        #expect(keys.keys.map(\.keyID) == ["ok"])
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

enum TestTokenSignerSegments {
    static func encode(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Base64URL.encode(try! encoder.encode(value))
    }
}
