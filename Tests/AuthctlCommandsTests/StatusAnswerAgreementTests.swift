import AuthCore
import AuthCoreTestSupport
import CachedTokenCore
import Foundation
import Testing

@testable import AuthctlCommands

/// The front's `status` (`CachedStatusAnswer`, Sources/CachedTokenCore) against the full
/// program's (`Status`, `Output.user`, `Output.describe`) on the same keystore, in one process:
/// a member added to the USER object, or a word changed, fails here at once, not only in the
/// binaries' agreement run (Tests/Front/agreement.py), which holds the two programs on every
/// keystore the tests know.
@Suite("status: the front's answer is the full program's", .serialized)
final class StatusAnswerAgreementTests {
    let authctl = InProcessAuthctl()

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// What the core prints for the keystore's current user; nil when it hands over.
    func coreAnswer(json: Bool) throws -> String? {
        let bytes = try #require(authctl.keystoreBytes())
        return try bytes.withUnsafeBytes { raw -> String? in
            let buffer = raw.bindMemory(to: UInt8.self)
            let found = try #require(KeystoreScan.currentUser(inBytes: buffer))
            let range = try #require(found.user)
            let user = try #require(KeystoreRecordReader.read(UnsafeBufferPointer(rebasing: buffer[range])) { CachedUser.read(&$0) })
            let now = Date().timeIntervalSince1970
            return CachedStatusAnswer.bytes(CachedStatusAnswer.Request(json: json), user: user, now: now).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
    }

    /// `status` (and `--json`) in both: the same bytes. Text words lifetimes relative to now: a
    /// difference is looked at again once (the two may straddle a minute).
    func expectSame(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for json in [true, false] {
            var same = false
            var last = ""
            for _ in 0..<2 where !same {
                let full = try await authctl.run(["status"] + (json ? ["--json"] : []))
                #expect(full.status == 0, "\(what): \(full.stderr)", sourceLocation: sourceLocation)
                let core = try coreAnswer(json: json)
                same = core == full.stdout
                last = "the front: \(core ?? "(hands over)")\nthe full program: \(full.stdout)"
            }
            #expect(same, "\(what), \(json ? "--json" : "text"):\n\(last)", sourceLocation: sourceLocation)
        }
    }

    @Test("a person signed in, then holding a resource grant, a chained one, one without tokens, two of one sign-in")
    func sameBytes() async throws {
        let provider = try FakeIdentityProvider()
        provider.behaviour.name = #"Ada "the countess" \ Lovelace"#
        try await authctl.addFakeProvider(provider)
        let login = try await authctl.run(["login", "oidc.fake", "--timeout", "120"])
        #expect(login.status == 0, "\(login.stderr)")
        try await expectSame("signed in")

        let keystore = FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock())
        let issuer = provider.issuer
        try await keystore.update { state in
            let tokens = TokenSet(
                accessToken: "grant-at", tokenType: "Bearer", expiresAt: Date().addingTimeInterval(7200 + 30), refreshToken: "grant-rt",
                idToken: nil, scopes: ["mcp:read", "mcp:write"])
            var chained = ResourceGrant(
                resource: "https://api.example/b", issuer: "https://as-b.example", providerID: "oidc.as-b", grantedAt: Date(),
                tokens: tokens)
            chained.tokens?.refreshToken = nil
            chained.viaProviderID = "oidc.fake"
            chained.viaTokenType = "urn:ietf:params:oauth:token-type:jwt"
            let signedOut = ResourceGrant(
                resource: "https://api.example/c", issuer: issuer, providerID: "oidc.fake", grantedAt: Date(), tokens: nil)
            // One sign-in for several resources: renewed with the refresh token of …/a.
            var shared = ResourceGrant(
                resource: "https://api.example/d", issuer: issuer, providerID: "oidc.fake", grantedAt: Date(), tokens: tokens,
                refreshTokenOf: "https://api.example/a")
            shared.tokens?.refreshToken = nil
            var sharedSignedOut = shared
            sharedSignedOut.resource = "https://api.example/e"
            sharedSignedOut.tokens = nil
            state.users[0].resourceGrants = [
                ResourceGrant(
                    resource: "https://api.example/a", issuer: issuer, providerID: "oidc.fake", grantedAt: Date(), tokens: tokens),
                chained, signedOut, shared, sharedSignedOut,
            ]
        }
        try await expectSame("holding grants")
        #expect(try coreAnswer(json: true) != nil, "the front answers a person's status")
    }
}
