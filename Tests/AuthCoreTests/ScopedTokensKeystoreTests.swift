import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `additionalTokens` (the tokens of `token --scope`) in keystore format version 1.
@Suite("Per-scope tokens in the keystore")
final class ScopedTokensKeystoreTests {
    let directory = NSTemporaryDirectory() + "authctl-scoped-\(UUID().uuidString)"

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A version 1 file as authctl wrote it before `additionalTokens` existed.
    static let before = """
        {
          "currentUid" : "SkO_IqrcU1rCeT1qpnrN74soflKv",
          "users" : [
            {
              "createdAt" : "2026-11-22T15:04:05Z",
              "emailVerified" : false,
              "lastAuthAt" : "2026-11-22T15:04:05Z",
              "lastProviderId" : "microsoft.com",
              "lastSignInAt" : "2026-11-22T15:04:05Z",
              "providerData" : [
                {
                  "federatedId" : "4b2eabcdef012345",
                  "issuer" : "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0",
                  "linkedAt" : "2026-11-22T15:04:05Z",
                  "profile" : { "emailVerified" : false },
                  "providerId" : "microsoft.com",
                  "tokens" : {
                    "accessToken" : "at-1",
                    "expiresAt" : "2026-11-22T16:04:05Z",
                    "refreshToken" : "rt-1",
                    "scopes" : ["User.Read", "openid"],
                    "tokenType" : "Bearer"
                  }
                }
              ],
              "uid" : "SkO_IqrcU1rCeT1qpnrN74soflKv"
            }
          ],
          "version" : 1
        }
        """

    @Test("a file written before per-scope tokens still decodes, and gains them as an additive field of version 1")
    func backwardCompatible() async throws {
        let path = directory + "/keystore.json"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = FileManager.default.createFile(atPath: path, contents: Data(Self.before.utf8), attributes: [.posixPermissions: 0o600])
        let keystore = FileKeystore(path: path, random: SystemRandomSource(), lockTimeout: 2, clock: SystemClock())
        let state = try keystore.read()
        #expect(state.currentUser?.providerData.first?.tokens?.additionalTokens == nil)
        try await keystore.update { state in
            state.users[0].providerData[0].tokens?.additionalTokens = [
                TokenSet.scopeKey(["https://graph.microsoft.com/.default"]): ScopedAccessToken(
                    accessToken: "at-graph", expiresAt: Date(timeIntervalSince1970: 1_790_003_600),
                    scopes: ["https://graph.microsoft.com/.default"])
            ]
        }
        let written = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        #expect(written.contains("\"additionalTokens\"") && written.contains("\"version\" : 1"))
        let again = try keystore.read().currentUser?.providerData.first?.tokens
        #expect(again?.additionalTokens?["https://graph.microsoft.com/.default"]?.accessToken == "at-graph")
        #expect(again?.refreshToken == "rt-1")
    }

    @Test("the scope-set key is the distinct scopes, sorted, joined by a space")
    func scopeKey() {
        #expect(TokenSet.scopeKey(["b", "a", "b", ""]) == "a b")
        #expect(TokenSet.scopeKey(["Mail.Read", "Calendars.Read"]) == TokenSet.scopeKey(["Calendars.Read", "Mail.Read"]))
    }
}
