import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// A chained grant's source (`login URL --via`, docs/resources.md) is bound to its sealed tokens
/// as its provider, issuer and resource are: `viaProviderId` decides which identity's token is
/// exchanged (and at which provider) when the grant is renewed, and `viaTokenType` what is asked
/// for. Someone who can write the file but not read its key must not change either unnoticed.
extension SealedKeystoreIntegrityTests {
    /// The golden state, its first user holding a grant chained from `oidc.example` and an ordinary one.
    static let chained: AccountState = {
        var state = KeystoreFormatTests.expected
        let later = Date(timeIntervalSince1970: 1_790_000_000)
        let tokens = TokenSet(accessToken: "b-at", expiresAt: later, refreshToken: nil, idToken: nil, scopes: ["read"])
        state.users[0].store(
            ResourceGrant(
                resource: "https://api.example/mcp", issuer: "https://as-b.example", providerID: "oidc.as-b", grantedAt: later,
                tokens: tokens, viaProviderID: "oidc.example", viaTokenType: TokenExchangeRequest.TokenType.idJAG))
        state.users[0].store(
            ResourceGrant(
                resource: "https://api.example/other", issuer: "https://as-b.example", providerID: "oidc.as-b", grantedAt: later,
                tokens: tokens))
        return state
    }()

    /// Changes `users[0].resourceGrants[index]` through `change`.
    static func grant(_ index: Int, _ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any]) throws -> Void {
        { json in
            var users = try #require(json["users"] as? [[String: Any]])
            var grants = try #require(users[0]["resourceGrants"] as? [[String: Any]])
            change(&grants[index])
            users[0]["resourceGrants"] = grants
            json["users"] = users
        }
    }

    static var chainSwaps: [String: (inout [String: Any]) throws -> Void] {
        [
            "the chained grant's identity swapped for another": grant(0) { $0["viaProviderId"] = "oidc.other" },
            "the chained grant's identity removed (an ordinary grant then)": grant(0) { $0["viaProviderId"] = nil },
            "the chained grant's kind of grant changed": grant(0) { $0["viaTokenType"] = TokenExchangeRequest.TokenType.jwt },
            "the chained grant's kind of grant removed": grant(0) { $0["viaTokenType"] = nil },
            "an ordinary grant made a chained one": grant(1) {
                $0["viaProviderId"] = "oidc.example"
                $0["viaTokenType"] = TokenExchangeRequest.TokenType.idJAG
            },
        ]
    }

    func sealedChained() async throws -> String {
        try await keystore().update { $0 = Self.chained }
        let key = directory + "/key"
        try Data(KeystoreKeyFile.newKeyText().utf8).write(to: URL(fileURLWithPath: key))
        chmod(key, 0o600)
        try await keystore().reseal(.keyFile(path: key))
        return key
    }

    @Test("a sealed chained grant opens with its source as it was stored")
    func chainedGrantOpens() async throws {
        let key = try await sealedChained()
        #expect(!String(decoding: fileBytes, as: UTF8.self).contains("b-at"))
        let grants = try keystore(KeystoreKeys(keyFile: key)).read().users[0].resourceGrants
        #expect(grants.map(\.viaProviderID) == ["oidc.example", nil])
        #expect(grants.first?.viaTokenType == TokenExchangeRequest.TokenType.idJAG && grants.first?.tokens?.accessToken == "b-at")
    }

    @Test(
        "a chained grant's source changed beside its sealed tokens: damage, nothing served or changed", arguments: chainSwaps.keys.sorted())
    func chainSourceBound(_ case: String) async throws {
        let key = try await sealedChained()
        try tamper(try #require(Self.chainSwaps[`case`]))
        let before = fileBytes
        let keys = KeystoreKeys(keyFile: key)
        #expect { try self.keystore(keys).read() } throws: { Self.isKeystoreError($0) && "\($0)".contains("damaged") }
        await #expect { try await self.keystore(keys).update { $0.users[0].displayName = "x" } } throws: { Self.isKeystoreError($0) }
        #expect(fileBytes == before)
    }
}
