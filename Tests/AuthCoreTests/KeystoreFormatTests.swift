import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// Pins keystore format version 1 (docs/keystore.md): a file with every field set reads
/// as the expected domain values and is written back byte for byte, so that a change to
/// the domain types cannot change the file unnoticed. Every value is made up.
@Suite("The keystore's file format, pinned")
struct KeystoreFormatTests {
    static let created = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21T14:13:20Z
    static let later = Date(timeIntervalSince1970: 1_790_003_600)  // 2026-09-21T15:13:20Z

    /// Every field of version 1, in the encoder's own layout (sorted keys, two-space indent).
    static let golden = """
        {
          "currentUid" : "uid-golden-00000000000000000",
          "pendingCredentials" : [
            {
              "conflictingUID" : "uid-golden-00000000000000000",
              "createdAt" : "2026-09-21T14:13:20Z",
              "credential" : {
                "claims" : {
                  "aud" : "client-golden",
                  "email" : "ada@example.com",
                  "email_verified" : true,
                  "exp" : 1790003600,
                  "iss" : "https://idp.example/other",
                  "sub" : "subject-2"
                },
                "federatedId" : "subject-2",
                "issuer" : "https://idp.example/other",
                "profile" : {
                  "displayName" : "Ada L.",
                  "email" : "ada@example.com",
                  "emailVerified" : true,
                  "isPrivateEmail" : false,
                  "photoURL" : "https://idp.example/photo/2"
                },
                "providerId" : "oidc.other",
                "tokens" : {
                  "accessToken" : "access-token-2",
                  "expiresAt" : "2026-09-21T15:13:20Z",
                  "idToken" : "id-token-2",
                  "refreshToken" : "refresh-token-2",
                  "scopes" : [
                    "openid"
                  ],
                  "tokenType" : "Bearer"
                }
              },
              "expiresAt" : "2026-09-21T15:13:20Z",
              "handle" : "pc_golden000000000000",
              "reason" : "account-exists-with-different-credential"
            },
            {
              "conflictingUID" : "",
              "createdAt" : "2026-09-21T14:13:20Z",
              "credential" : {
                "brokered" : {
                  "pendingToken" : "firebase-pending-token",
                  "projectId" : "my-app-golden"
                },
                "claims" : {

                },
                "federatedId" : "oid-golden-2",
                "issuer" : "firebase:my-app-golden",
                "profile" : {
                  "email" : "ada@example.com",
                  "emailVerified" : true
                },
                "providerId" : "microsoft.com",
                "tokens" : {
                  "accessToken" : "graph-access-token-2",
                  "expiresAt" : "2026-09-21T15:13:20Z",
                  "scopes" : [

                  ],
                  "tokenType" : "Bearer"
                }
              },
              "expiresAt" : "2026-09-21T15:13:20Z",
              "handle" : "pc_golden111111111111",
              "reason" : "credential-already-in-use"
            }
          ],
          "users" : [
            {
              "createdAt" : "2026-09-21T14:13:20Z",
              "displayName" : "Ada Lovelace",
              "email" : "ada@example.com",
              "emailVerified" : true,
              "lastAuthAt" : "2026-09-21T15:13:20Z",
              "lastProviderId" : "oidc.example",
              "lastSignInAt" : "2026-09-21T15:13:20Z",
              "photoURL" : "https://idp.example/photo/1",
              "providerData" : [
                {
                  "federatedId" : "subject-1",
                  "issuer" : "https://idp.example",
                  "linkedAt" : "2026-09-21T14:13:20Z",
                  "profile" : {
                    "displayName" : "Ada Lovelace",
                    "email" : "ada@example.com",
                    "emailVerified" : true,
                    "isPrivateEmail" : true,
                    "photoURL" : "https://idp.example/photo/1"
                  },
                  "providerId" : "oidc.example",
                  "tokens" : {
                    "accessToken" : "access-token-1",
                    "additionalTokens" : {
                      "https://api.example/.default" : {
                        "accessToken" : "access-token-scoped",
                        "expiresAt" : "2026-09-21T15:13:20Z",
                        "scopes" : [
                          "https://api.example/.default"
                        ],
                        "tokenType" : "Bearer"
                      }
                    },
                    "egress" : {
                      "issuer" : "https://idp.example",
                      "origins" : [
                        "https://idp.example:443"
                      ]
                    },
                    "expiresAt" : "2026-09-21T15:13:20Z",
                    "idToken" : "id-token-1",
                    "refreshToken" : "refresh-token-1",
                    "scopes" : [
                      "openid",
                      "profile",
                      "email"
                    ],
                    "tokenType" : "Bearer"
                  }
                }
              ],
              "uid" : "uid-golden-00000000000000000"
            },
            {
              "backend" : {
                "emulator" : "127.0.0.1:9099",
                "kind" : "firebase",
                "projectId" : "my-app-golden",
                "session" : {
                  "expiresAt" : "2026-09-21T15:13:20Z",
                  "idToken" : "firebase-id-token",
                  "refreshToken" : "firebase-refresh-token",
                  "scopes" : [

                  ],
                  "tokenType" : "Bearer"
                },
                "tenantId" : "tenant-golden"
              },
              "createdAt" : "2026-09-21T14:13:20Z",
              "email" : "ada@example.com",
              "emailVerified" : true,
              "lastAuthAt" : "2026-09-21T15:13:20Z",
              "lastProviderId" : "microsoft.com",
              "lastSignInAt" : "2026-09-21T15:13:20Z",
              "providerData" : [
                {
                  "federatedId" : "oid-golden",
                  "issuer" : "https://login.microsoftonline.com/{tenantid}/v2.0",
                  "linkedAt" : "2026-09-21T14:13:20Z",
                  "profile" : {
                    "email" : "ada@example.com",
                    "emailVerified" : true
                  },
                  "providerId" : "microsoft.com",
                  "tokens" : {
                    "accessToken" : "graph-access-token",
                    "expiresAt" : "2026-09-21T15:13:20Z",
                    "needsSignInSince" : "2026-09-21T15:13:20Z",
                    "scopes" : [
                      "User.Read"
                    ],
                    "tokenType" : "Bearer"
                  }
                }
              ],
              "uid" : "firebaseLocalIdGolden0000000"
            }
          ],
          "version" : 1
        }
        """

    /// What `golden` holds, as domain values.
    static let expected: AccountState = {
        let tokens = TokenSet(
            accessToken: "access-token-1", expiresAt: later, refreshToken: "refresh-token-1", idToken: "id-token-1",
            scopes: ["openid", "profile", "email"],
            additionalTokens: [
                "https://api.example/.default": ScopedAccessToken(
                    accessToken: "access-token-scoped", expiresAt: later, scopes: ["https://api.example/.default"])
            ])
        var bound = tokens
        bound.egress = SecretBinding(
            issuer: "https://idp.example", origins: [URL(string: "https://idp.example/token")!].compactMap(Origin.init))
        let identity = LinkedIdentity(
            providerID: "oidc.example", issuer: "https://idp.example", federatedID: "subject-1",
            profile: Profile(
                email: "ada@example.com", emailVerified: true, displayName: "Ada Lovelace", photoURL: "https://idp.example/photo/1",
                isPrivateEmail: true),
            linkedAt: created, tokens: bound)
        let user = User(
            uid: "uid-golden-00000000000000000", email: "ada@example.com", emailVerified: true, displayName: "Ada Lovelace",
            photoURL: "https://idp.example/photo/1", createdAt: created, lastSignInAt: later, lastAuthAt: later,
            lastProviderID: "oidc.example", providerData: [identity])
        let credential = Credential(
            providerID: "oidc.other", issuer: "https://idp.example/other", federatedID: "subject-2",
            profile: Profile(
                email: "ada@example.com", emailVerified: true, displayName: "Ada L.", photoURL: "https://idp.example/photo/2",
                isPrivateEmail: false),
            tokens: TokenSet(
                accessToken: "access-token-2", expiresAt: later, refreshToken: "refresh-token-2", idToken: "id-token-2", scopes: ["openid"]),
            claims: IDTokenClaims(raw: [
                "aud": "client-golden", "email": "ada@example.com", "email_verified": .bool(true), "exp": .number(1_790_003_600),
                "iss": "https://idp.example/other", "sub": "subject-2",
            ]))
        let pending = PendingCredential(
            handle: "pc_golden000000000000", reason: .accountExists, conflictingUID: user.uid, createdAt: created, credential: credential)
        // A user of a Firebase project (docs/firebase.md): its backend, with the Firebase session.
        var firebaseUser = User(
            uid: "firebaseLocalIdGolden0000000", email: "ada@example.com", emailVerified: true, displayName: nil, photoURL: nil,
            createdAt: created, lastSignInAt: later, lastAuthAt: later, lastProviderID: "microsoft.com",
            providerData: [
                LinkedIdentity(
                    providerID: "microsoft.com", issuer: "https://login.microsoftonline.com/{tenantid}/v2.0", federatedID: "oid-golden",
                    profile: Profile(email: "ada@example.com", emailVerified: true), linkedAt: created,
                    tokens: TokenSet(
                        accessToken: "graph-access-token", expiresAt: later, refreshToken: nil, idToken: nil, scopes: ["User.Read"]))
            ])
        // A refresh the provider refused (`invalid_grant`): the session needs a new sign-in.
        firebaseUser.providerData[0].tokens?.needsSignInSince = later
        firebaseUser.backend = UserBackend(
            projectID: "my-app-golden", tenantID: "tenant-golden",
            session: TokenSet(
                accessToken: nil, expiresAt: later, refreshToken: "firebase-refresh-token", idToken: "firebase-id-token", scopes: []),
            emulator: "127.0.0.1:9099")
        // A Firebase conflict's pending credential: the project's pendingToken with it.
        var brokered = Credential(
            providerID: "microsoft.com", issuer: "firebase:my-app-golden", federatedID: "oid-golden-2",
            profile: Profile(email: "ada@example.com", emailVerified: true),
            tokens: TokenSet(accessToken: "graph-access-token-2", expiresAt: later, refreshToken: nil, idToken: nil, scopes: []),
            claims: IDTokenClaims(raw: [:]))
        brokered.brokered = BrokeredCredential(projectID: "my-app-golden", pendingToken: "firebase-pending-token")
        let firebasePending = PendingCredential(
            handle: "pc_golden111111111111", reason: .credentialAlreadyInUse, conflictingUID: "", createdAt: created, credential: brokered)
        return AccountState(currentUID: user.uid, users: [user, firebaseUser], pendingCredentials: [pending, firebasePending])
    }()

    @Test("a file with every field set reads as the expected domain values, through the full read and the hot path's")
    func decodes() throws {
        let data = Data(Self.golden.utf8)
        #expect(try KeystoreFile.decode(data, path: "golden").state == Self.expected)
        let current = try KeystoreFile.decodeCurrentUser(data, path: "golden").state
        let currentUser = Self.expected.users.filter { $0.uid == current.currentUID }
        #expect(current == AccountState(currentUID: Self.expected.currentUID, users: currentUser))
    }

    @Test("the expected domain values are written as exactly that file: the same keys, the same bytes")
    func encodes() throws {
        let written = try KeystoreFile(Self.expected).encodedForWriting(path: "golden")
        #expect(String(decoding: written, as: UTF8.self) == Self.golden)
    }

    /// Every property name in a keystore file; the keys of `claims` and `additionalTokens`
    /// are data, not names of the format.
    static func fieldNames(in value: JSONValue) -> Set<String> {
        switch value {
        case .object(let fields):
            return fields.reduce(into: Set(fields.keys)) { names, field in
                switch field.key {
                case "claims": break
                case "additionalTokens": names.formUnion(fieldNames(in: .array(field.value.objectValue.map { Array($0.values) } ?? [])))
                default: names.formUnion(fieldNames(in: field.value))
                }
            }
        case .array(let values): return values.reduce(into: []) { $0.formUnion(fieldNames(in: $1)) }
        default: return []
        }
    }

    /// Every name a JSON Schema lists under `properties`, at any depth.
    static func schemaNames(in value: JSONValue) -> Set<String> {
        switch value {
        case .object(let fields):
            return fields.reduce(into: Set(fields["properties"]?.objectValue.map { Array($0.keys) } ?? [])) {
                $0.formUnion(schemaNames(in: $1.value))
            }
        case .array(let values): return values.reduce(into: []) { $0.formUnion(schemaNames(in: $1)) }
        default: return []
        }
    }

    @Test("the golden file, plaintext and sealed, has every field of the documented schema (docs/keystore.schema.json), and no other")
    func matchesSchema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let schema = try #require(JSONValue.object(from: Data(contentsOf: root.appendingPathComponent("docs/keystore.schema.json"))))
        let golden = try #require(JSONValue.object(from: Data(Self.golden.utf8)))
        let key = DataKey.random()
        // Every field of `sealing` at once (a real one has one of `kdf`, `keyringItem`, `keyFile`).
        let sealing = try KeystoreSealing(
            dataKey: key, wrappingKey: DataKey.random().symmetricKey, keySource: .passphrase, kdf: .standard(salt: Data(count: 16)),
            keyringItem: "item", keyFile: "/home/ada/.config/authctl/keystore.key")
        let sealedFile = try KeystoreFile(Self.expected).sealed(with: key, sealing: sealing).encoded()
        let sealed = try #require(JSONValue.object(from: sealedFile))
        let workload = WorkloadKeystoreFormatTests.fieldNames.union(DerivedCredentialsKeystoreTests.fieldNames)
        let written = Self.fieldNames(in: .object(golden)).union(Self.fieldNames(in: .object(sealed))).union(workload)
            .union(ResourceKeystoreFormatTests.fieldNames).union(RegistrationSecretsTests.fieldNames).union(try Self.proofFieldNames())
        let documented = Self.schemaNames(in: .object(schema))
        #expect(written.subtracting(documented).isEmpty, "written, not documented")
        #expect(documented.subtracting(written).isEmpty, "documented, never written")
    }

    /// The fields of DPoP-bound tokens with rich authorization (RFC 9449, RFC 9396): `dpopKey`
    /// in a plaintext file (in a sealed one it is under `sealed`), `authorizationDetails`.
    static func proofFieldNames() throws -> Set<String> {
        var state = Self.expected
        let details = try #require(AuthorizationDetails(.array([.object(["type": .string("payment_initiation")])])))
        state.users[0].providerData[0].tokens?.proofKey = DPoPKey.generate(using: SeededRandom(seed: 3))
        state.users[0].providerData[0].tokens?.authorizationDetails = details
        let object = try #require(JSONValue.object(from: try KeystoreFile(state).encoded()))
        // The details' own fields are the provider's, not the keystore's.
        let names = Self.fieldNames(in: .object(object)).subtracting(Self.fieldNames(in: details.value))
        #expect(names.isSuperset(of: ["dpopKey", "authorizationDetails"]))
        return names
    }

    /// A file as the first builds wrote it: no pending credentials, no scoped tokens, no
    /// private-email flag, no photo, and an identity signed in with an ID token alone.
    static let oldest = """
        {
          "currentUid" : "uid-old-000000000000000000000",
          "users" : [
            {
              "createdAt" : "2026-09-21T14:13:20Z",
              "emailVerified" : false,
              "lastAuthAt" : "2026-09-21T14:13:20Z",
              "lastSignInAt" : "2026-09-21T14:13:20Z",
              "providerData" : [
                {
                  "federatedId" : "subject-old",
                  "issuer" : "https://idp.example",
                  "linkedAt" : "2026-09-21T14:13:20Z",
                  "profile" : {
                    "emailVerified" : false
                  },
                  "providerId" : "oidc.example",
                  "tokens" : {
                    "idToken" : "id-token-old",
                    "scopes" : [
                      "openid"
                    ],
                    "tokenType" : "Bearer"
                  }
                },
                {
                  "federatedId" : "subject-out",
                  "issuer" : "https://idp.example/out",
                  "linkedAt" : "2026-09-21T14:13:20Z",
                  "profile" : {
                    "emailVerified" : false
                  },
                  "providerId" : "oidc.out"
                }
              ],
              "uid" : "uid-old-000000000000000000000"
            }
          ],
          "version" : 1
        }
        """

    @Test("a file without the optional fields added since version 1 began still reads, and is written back unchanged")
    func oldestFileReads() throws {
        let state = try KeystoreFile.decode(Data(Self.oldest.utf8), path: "old").state
        let user = try #require(state.currentUser)
        #expect(state.pendingCredentials.isEmpty && user.email == nil && user.photoURL == nil && user.lastProviderID == nil)
        let tokens = try #require(user.providerData.first?.tokens)
        #expect(tokens.accessToken == nil && tokens.additionalTokens == nil && tokens.expiresAt == nil && tokens.idToken == "id-token-old")
        #expect(user.providerData.last?.tokens == nil && user.providerData.first?.profile.isPrivateEmail == nil)
        #expect(String(decoding: try KeystoreFile(state).encoded(), as: UTF8.self) == Self.oldest)
    }

    @Test("a pending credential keeps the expiry its file holds, not one computed again from its creation")
    func pendingExpiryIsTheFiles() throws {
        let edited = Self.golden.replacingOccurrences(
            of: "\"expiresAt\" : \"2026-09-21T15:13:20Z\",\n      \"handle\"",
            with: "\"expiresAt\" : \"2026-09-21T14:43:20Z\",\n      \"handle\"")
        #expect(edited != Self.golden)
        let state = try KeystoreFile.decode(Data(edited.utf8), path: "edited").state
        #expect(state.pendingCredentials.first?.expiresAt == Self.created.addingTimeInterval(1800))
    }
}
