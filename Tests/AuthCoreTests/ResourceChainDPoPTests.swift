import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// DPoP through the chain (docs/resources.md, "Enterprise-managed authorization"): a DPoP-bound
/// identity at AS-A proves its key at the exchange; the grant at AS-B is bound to a key of its
/// own where AS-B offers DPoP; a renewal proves both again.
@Suite("Resources: identity chaining with DPoP")
struct ResourceChainDPoPTests {
    static let identityKey = DPoPKey.generate(using: SeededRandom(seed: 11))

    @Test("a DPoP-bound identity's exchange at AS-A carries a proof of the identity's key, for AS-A's token endpoint")
    func exchangeProves() async throws {
        let parts = ResourceChainTests.parts(identityKey: Self.identityKey)
        _ = try await parts.chain.run(try ResourceChainTests.input())
        let proof = try #require(parts.servers.proofsA.first ?? nil)
        let (header, claims) = try #require(DPoPProofParts(proof))
        #expect(header["x"] == Self.identityKey.x && header["y"] == Self.identityKey.y)
        #expect(claims["htm"] == "POST" && claims["htu"] == "\(ResourceChainTests.issuerA)/token" && claims["ath"] == nil)
        // AS-B offers no DPoP here: its grant is a bearer one, and no proof went there.
        #expect(parts.servers.proofsB == [nil])
        #expect(parts.keystore.state.users.first?.resourceGrants.first?.tokens?.tokenType == "Bearer")
    }

    @Test("where AS-B offers DPoP, the grant is bound to a key of its own (not the identity's), kept with its tokens")
    func grantBound() async throws {
        let parts = ResourceChainTests.parts(identityKey: Self.identityKey)
        parts.servers.bOffersDPoP = true
        let output = try await parts.chain.run(try ResourceChainTests.input())
        let proof = try #require(parts.servers.proofsB.first ?? nil)
        let (header, claims) = try #require(DPoPProofParts(proof))
        #expect(claims["htu"] == "\(ResourceChainTests.issuerB)/token")
        let kept = try #require(parts.keystore.state.users.first?.resourceGrants.first?.tokens)
        let key = try #require(kept.proofKey)
        #expect(kept.isDPoPBound && output.grant.tokens?.proofKey == key)
        #expect(header["x"] == key.x && key != Self.identityKey)
        // `request` and `token --resource` get the key with the token.
        let token = try await parts.resourceTokens.token(for: try #require(URL(string: ResourceChainTests.resource)))
        #expect(token.tokenType == "DPoP" && token.proofKey == key)
    }

    @Test("a bearer identity's chain to an AS-B that offers DPoP: no proof at AS-A, a bound grant at AS-B")
    func bearerIdentityBoundGrant() async throws {
        let parts = ResourceChainTests.parts()
        parts.servers.bOffersDPoP = true
        _ = try await parts.chain.run(try ResourceChainTests.input())
        #expect(parts.servers.proofsA == [nil])
        #expect(parts.servers.proofsB.first??.isEmpty == false)
        #expect(parts.keystore.state.users.first?.resourceGrants.first?.tokens?.isDPoPBound == true)
    }

    @Test("a renewal re-chains with the identity's proof at AS-A and the grant's own key at AS-B, and stays bound to it")
    func renewalProves() async throws {
        let parts = ResourceChainTests.parts(identityKey: Self.identityKey)
        parts.servers.bOffersDPoP = true
        _ = try await parts.chain.run(try ResourceChainTests.input())
        let key = try #require(parts.keystore.state.users.first?.resourceGrants.first?.tokens?.proofKey)
        parts.clock.advance(by: 301)
        let renewed = try await parts.resourceTokens.token(for: try #require(URL(string: ResourceChainTests.resource)))
        #expect(renewed.refreshed && renewed.accessToken == "b-at-2" && renewed.proofKey == key)
        #expect(parts.servers.proofsA.count == 2 && parts.servers.proofsB.count == 2)
        let (headerA, _) = try #require(DPoPProofParts(parts.servers.proofsA[1] ?? ""))
        let (headerB, _) = try #require(DPoPProofParts(parts.servers.proofsB[1] ?? ""))
        #expect(headerA["x"] == Self.identityKey.x && headerB["x"] == key.x)
        #expect(parts.keystore.state.users.first?.resourceGrants.first?.tokens?.proofKey == key)
    }

    @Test("a bound grant whose key is gone is not renewed as a bearer one: nothing is sent, the keystore is unchanged")
    func renewalWithoutKey() async throws {
        let parts = ResourceChainTests.parts()
        parts.servers.bOffersDPoP = true
        _ = try await parts.chain.run(try ResourceChainTests.input())
        try await parts.keystore.update { state in state.users[0].resourceGrants[0].tokens?.proofKey = nil }
        let before = parts.keystore.state
        parts.clock.advance(by: 301)
        await #expect(throws: AuthError.self) {
            _ = try await parts.resourceTokens.token(for: try #require(URL(string: ResourceChainTests.resource)))
        }
        #expect(parts.servers.exchanges.count == 1 && parts.servers.presentations.count == 1)
        #expect(parts.keystore.state == before)
    }
}
