import Foundation
import Testing

@testable import AuthCore
@testable import CachedTokenCore

/// The cached answer's rules — the identity chosen, the token valid for `--min-ttl`, a bearer
/// token — decided once, in the cached-token core, for both programs: the full program's
/// `TokenRefresh` and the front's `CachedTokenAnswer` give the same token for the same record,
/// and the front hands over only where it says it does (a type not ASCII, an expiry within a
/// second of the bound).
@Suite struct CachedAnswerAgreementTests {
    /// 2026-09-21T14:13:20Z.
    static let expiry = 1_790_000_000.0

    static func record(tokenType: String, expiresAt: Bool, lastProviderId: String?) -> String {
        let expires = expiresAt ? "\"expiresAt\":\"2026-09-21T14:13:20Z\"," : ""
        func identity(_ id: String) -> String {
            #"{"providerId":"\#(id)","issuer":"https://idp.example","federatedId":"sub-\#(id)","linkedAt":"2026-01-01T00:00:00Z","#
                + #""profile":{"emailVerified":true},"tokens":{"accessToken":"at-\#(id)","tokenType":"\#(tokenType)","#
                + expires + #""scopes":["openid"]}}"#
        }
        let last = lastProviderId.map { "\"lastProviderId\":\"\($0)\"," } ?? ""
        return #"{"uid":"uid-1","emailVerified":true,"createdAt":"2026-01-01T00:00:00Z","lastSignInAt":"2026-01-01T00:00:00Z","#
            + #""lastAuthAt":"2026-01-01T00:00:00Z","# + last + #""providerData":["# + identity("oidc.a") + "," + identity("oidc.b")
            + "]}"
    }

    /// The token the full program prints from its cache for `provider`, or nil.
    static func fullAnswer(_ user: User, provider: String?, minimumTTL: Int, now: Double) -> String? {
        let input = TokenRefresh.Input(providerID: provider.flatMap { try? ProviderID(parsing: $0) }, minimumTTL: TimeInterval(minimumTTL))
        guard let (providerID, tokens) = try? TokenRefresh.select(input, of: user),
            let output = TokenRefresh.validOutput(
                tokens, uid: user.uid, providerID: providerID, input: input, now: Date(timeIntervalSince1970: now), refreshed: false),
            output.proofKey == nil, !output.tokenType.lowercased().elementsEqual("dpop")
        else { return nil }
        return output.token
    }

    @Test("TokenRefresh and CachedTokenAnswer give the same token; the front hands over only where it says")
    func sameAnswers() throws {
        let types = ["Bearer", "bearer", "BEARER", "DPoP", "dpop", "DPOP", "dPoP", "B\u{E9}arer", "N_A", "dpop ", "\u{FF24}PoP"]
        let offsets: [Double] = [-1, 0, 59, 60, 60.25, 61, 61.5, 62, 3600]
        var compared = 0, answered = 0
        for tokenType in types {
            for expiresAt in [true, false] {
                for last in [nil, "oidc.b", "oidc.gone"] as [String?] {
                    let text = Self.record(tokenType: tokenType, expiresAt: expiresAt, lastProviderId: last)
                    let user = try #require(KeystoreRecord.User.fastDecoded(Data(text.utf8))).domain
                    let cached = try #require(
                        Array(text.utf8).withUnsafeBufferPointer { bytes in KeystoreRecordReader.read(bytes) { CachedUser.read(&$0) } })
                    for provider in [nil, "oidc.a", "oidc.b", "oidc.none"] as [String?] {
                        for ttl in [0, 60] {
                            for offset in offsets {
                                let now = Self.expiry - offset
                                let full = Self.fullAnswer(user, provider: provider, minimumTTL: ttl, now: now)
                                var request = CachedTokenRequest()
                                request.provider = provider
                                request.minimumTTL = ttl
                                let front = CachedTokenAnswer.bytes(request, user: cached, now: now)
                                let context =
                                    "\(tokenType) expires=\(expiresAt) last=\(last ?? "-") provider=\(provider ?? "-") ttl=\(ttl) offset=\(offset)"
                                compared += 1
                                if let front {
                                    answered += 1
                                    #expect(full.map { Array(($0 + "\n").utf8) } == front, "\(context)")
                                } else if full != nil {
                                    // Handed over: only a type not ASCII, or an expiry within a second of the bound.
                                    let near = expiresAt && offset <= Double(ttl) + 1
                                    #expect(!tokenType.utf8.allSatisfy { $0 < 0x80 } || near, "\(context)")
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(compared == 11 * 2 * 3 * 4 * 2 * 9)
        #expect(answered > 100)
    }

    @Test("a DPoP token type is the one rule in both programs: ASCII letters in any case, nothing else")
    func dpop() {
        let types = [
            "DPoP", "dpop", "DPOP", "dPoP", "Bearer", "", "dpo", "dpopp", " dpop", "d\u{0}op", "\u{FF24}PoP", "DP\u{212A}P", "D\u{0130}OP",
        ]
        for tokenType in types {
            #expect(CachedTokenAnswer.isDPoP(tokenType) == (tokenType.lowercased() == "dpop"), "\(tokenType)")
            #expect(
                TokenSet(accessToken: "t", tokenType: tokenType, expiresAt: nil, refreshToken: nil, idToken: nil, scopes: []).isDPoPBound
                    == CachedTokenAnswer.isDPoP(tokenType))
        }
    }

    @Test("a uid's syntax is the core's, in every length the full program asks")
    func uids() {
        #expect(UIDSyntax.isUID("uid-Ada_1") && !UIDSyntax.isUID("uid é") && !UIDSyntax.isUID("a;b"))
        #expect(!UIDSyntax.isUID("short", lengths: UIDSyntax.exportedLengths))
        #expect(UIDSyntax.isUID(String(repeating: "a", count: 20), lengths: UIDSyntax.exportedLengths))
        #expect(!UIDSyntax.isUID(String(repeating: "a", count: 129)))
    }
}
