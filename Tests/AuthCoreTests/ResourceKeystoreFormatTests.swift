import Foundation
import Testing

@testable import AuthCore

/// Pins the resource grants of keystore format version 1 (docs/keystore.md,
/// docs/resources.md): a user's optional `resourceGrants`, one per (issuer, resource), whose
/// tokens are sealed like an identity's, bound to the grant's place.
@Suite("The keystore's resource grants, pinned")
struct ResourceKeystoreFormatTests {
    static let created = KeystoreFormatTests.created
    static let later = KeystoreFormatTests.later

    static let golden = """
        {
          "currentUid" : "uid-resource-0000000000000000",
          "users" : [
            {
              "createdAt" : "2026-09-21T14:13:20Z",
              "emailVerified" : false,
              "lastAuthAt" : "2026-09-21T14:13:20Z",
              "lastSignInAt" : "2026-09-21T15:13:20Z",
              "providerData" : [

              ],
              "resourceGrants" : [
                {
                  "grantedAt" : "2026-09-21T14:13:20Z",
                  "issuer" : "https://as.example",
                  "providerId" : "oidc.as-example",
                  "resource" : "https://api.example/mcp",
                  "tokens" : {
                    "accessToken" : "access-token-r",
                    "expiresAt" : "2026-09-21T15:13:20Z",
                    "refreshToken" : "refresh-token-r",
                    "scopes" : [
                      "read"
                    ],
                    "tokenType" : "Bearer"
                  }
                },
                {
                  "grantedAt" : "2026-09-21T14:13:20Z",
                  "issuer" : "https://as.example",
                  "providerId" : "oidc.as-example",
                  "resource" : "https://api.example/other"
                },
                {
                  "grantedAt" : "2026-09-21T14:13:20Z",
                  "issuer" : "https://as-b.example",
                  "providerId" : "oidc.as-b-example",
                  "resource" : "https://api.example/chained",
                  "tokens" : {
                    "accessToken" : "access-token-c",
                    "expiresAt" : "2026-09-21T15:13:20Z",
                    "scopes" : [
                      "read"
                    ],
                    "tokenType" : "Bearer"
                  },
                  "viaProviderId" : "oidc.corp",
                  "viaTokenType" : "urn:ietf:params:oauth:token-type:id-jag"
                },
                {
                  "grantedAt" : "2026-09-21T14:13:20Z",
                  "issuer" : "https://as.example",
                  "providerId" : "oidc.as-example",
                  "refreshTokenOf" : "https://api.example/mcp",
                  "resource" : "https://api.example/docs",
                  "tokens" : {
                    "accessToken" : "access-token-r",
                    "expiresAt" : "2026-09-21T15:13:20Z",
                    "scopes" : [
                      "read"
                    ],
                    "tokenType" : "Bearer"
                  }
                }
              ],
              "uid" : "uid-resource-0000000000000000"
            }
          ],
          "version" : 1
        }
        """

    static let expected: AccountState = {
        var user = User(
            uid: "uid-resource-0000000000000000", email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: created,
            lastSignInAt: later, lastAuthAt: created, lastProviderID: nil, providerData: [])
        user.store(
            ResourceGrant(
                resource: "https://api.example/mcp", issuer: "https://as.example", providerID: "oidc.as-example", grantedAt: created,
                tokens: TokenSet(
                    accessToken: "access-token-r", expiresAt: later, refreshToken: "refresh-token-r", idToken: nil, scopes: ["read"])))
        user.store(
            ResourceGrant(
                resource: "https://api.example/other", issuer: "https://as.example", providerID: "oidc.as-example", grantedAt: created,
                tokens: nil))
        // `login URL --via oidc.corp` (identity chaining): the identity it came from and the kind of grant.
        user.store(
            ResourceGrant(
                resource: "https://api.example/chained", issuer: "https://as-b.example", providerID: "oidc.as-b-example",
                grantedAt: created,
                tokens: TokenSet(accessToken: "access-token-c", expiresAt: later, refreshToken: nil, idToken: nil, scopes: ["read"]),
                viaProviderID: "oidc.corp", viaTokenType: "urn:ietf:params:oauth:token-type:id-jag"))
        // `login URL URL2` (one sign-in for several resources): the sign-in's refresh token is
        // the first grant's, which this one names.
        var shared = ResourceGrant(
            resource: "https://api.example/docs", issuer: "https://as.example", providerID: "oidc.as-example", grantedAt: created,
            tokens: TokenSet(accessToken: "access-token-r", expiresAt: later, refreshToken: nil, idToken: nil, scopes: ["read"]))
        shared.refreshTokenOf = "https://api.example/mcp"
        user.store(shared)
        return AccountState(currentUID: user.uid, users: [user])
    }()

    @Test("a user's resource grants read as the expected values and are written back as exactly that file")
    func roundTrip() throws {
        #expect(try KeystoreFile.decode(Data(Self.golden.utf8), path: "golden").state == Self.expected)
        let written = try KeystoreFile(Self.expected).encodedForWriting(path: "golden")
        #expect(String(decoding: written, as: UTF8.self) == Self.golden)
        let current = try KeystoreFile.decodeCurrentUser(Data(Self.golden.utf8), path: "golden").state
        #expect(current == Self.expected)
    }

    @Test("sealed, a grant's tokens are ciphertext bound to its place, and open again with the key")
    func sealed() throws {
        let key = DataKey.random()
        let sealing = try KeystoreSealing(
            dataKey: key, wrappingKey: DataKey.random().symmetricKey, keySource: .passphrase, kdf: .standard(salt: Data(count: 16)))
        let sealedFile = try KeystoreFile(Self.expected).sealed(with: key, sealing: sealing).encoded()
        let text = String(decoding: sealedFile, as: UTF8.self)
        #expect(!text.contains("access-token-r") && !text.contains("refresh-token-r") && !text.contains("access-token-c"))
        #expect(text.contains("\"sealed\""))
        // Moved to another resource, the sealed value no longer opens.
        let moved = text.replacingOccurrences(of: "https://api.example/mcp", with: "https://api.example/elsewhere")
        #expect(moved != text)
        #expect(throws: (any Error).self) { try KeystoreFile.decode(Data(moved.utf8), path: "moved").opened(with: key) }
        // Pointed at another grant's refresh token, the sealed value no longer opens either.
        let repointed = text.replacingOccurrences(
            of: #""refreshTokenOf" : "https://api.example/mcp""#, with: #""refreshTokenOf" : "https://api.example/other""#)
        #expect(repointed != text)
        #expect(throws: (any Error).self) { try KeystoreFile.decode(Data(repointed.utf8), path: "repointed").opened(with: key) }
        #expect(try KeystoreFile.decode(sealedFile, path: "sealed").opened(with: key).state == Self.expected)
    }

    @Test("a user without resource grants is written without the field (every file before them)")
    func olderFiles() throws {
        let state = try KeystoreFile.decode(Data(KeystoreFormatTests.oldest.utf8), path: "old").state
        #expect(state.users.allSatisfy { $0.resourceGrants.isEmpty })
        #expect(!String(decoding: try KeystoreFile(state).encoded(), as: UTF8.self).contains("resourceGrants"))
    }

    /// Every field name of the resource-grant records, for the schema test.
    static var fieldNames: Set<String> {
        guard let object = JSONValue.object(from: Data(golden.utf8)) else { return [] }
        return KeystoreFormatTests.fieldNames(in: .object(object))
    }
}
