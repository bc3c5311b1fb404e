import Foundation
import Testing

@testable import AuthCore

/// Pins the workload fields of keystore format version 1 (docs/keystore.md, docs/sign-in.md
/// "Workloads"): a user's optional `kind` and an identity's optional `workload`, which says
/// where the client's authentication is read and never holds its value.
@Suite("The keystore's workload fields, pinned")
struct WorkloadKeystoreFormatTests {
    static let created = KeystoreFormatTests.created
    static let later = KeystoreFormatTests.later

    static let golden = """
        {
          "currentUid" : "uid-workload-0000000000000000",
          "users" : [
            {
              "createdAt" : "2026-09-21T14:13:20Z",
              "emailVerified" : false,
              "kind" : "workload",
              "lastAuthAt" : "2026-09-21T14:13:20Z",
              "lastProviderId" : "microsoft.com",
              "lastSignInAt" : "2026-09-21T14:13:20Z",
              "providerData" : [
                {
                  "federatedId" : "app-golden",
                  "issuer" : "https://login.example/8eaef023-2b34-4da1-9baa-8bc8c9d6a490/v2.0",
                  "linkedAt" : "2026-09-21T14:13:20Z",
                  "profile" : {
                    "emailVerified" : false
                  },
                  "providerId" : "microsoft.com",
                  "tokens" : {
                    "accessToken" : "access-token-w",
                    "additionalTokens" : {
                      "https://graph.example/.default" : {
                        "accessToken" : "access-token-g",
                        "expiresAt" : "2026-09-21T15:13:20Z",
                        "scopes" : [
                          "https://graph.example/.default"
                        ],
                        "tokenType" : "Bearer"
                      }
                    },
                    "expiresAt" : "2026-09-21T15:13:20Z",
                    "scopes" : [
                      "api://golden/.default"
                    ],
                    "tokenType" : "Bearer"
                  },
                  "workload" : {
                    "clientId" : "app-golden",
                    "federatedAudience" : "api://AzureADTokenExchange",
                    "federatedTokenSource" : "github-actions",
                    "scopes" : [
                      "api://golden/.default"
                    ],
                    "tenant" : "contoso.onmicrosoft.com"
                  }
                }
              ],
              "uid" : "uid-workload-0000000000000000"
            }
          ],
          "version" : 1
        }
        """

    static func workloadUser(_ authentication: WorkloadAuthentication, uid: String = "uid-workload-0000000000000000") -> User {
        let client = WorkloadClient(
            clientID: "app-golden", tenant: "contoso.onmicrosoft.com", authentication: authentication, scopes: ["api://golden/.default"],
            federatedAudience: "api://AzureADTokenExchange",
            assertionAlgorithm: authentication == .certificateFile("/ci/app.pem") ? "PS256" : nil)
        let tokens = TokenSet(
            accessToken: "access-token-w", expiresAt: later, refreshToken: nil, idToken: nil, scopes: ["api://golden/.default"],
            additionalTokens: [
                "https://graph.example/.default": ScopedAccessToken(
                    accessToken: "access-token-g", expiresAt: later, scopes: ["https://graph.example/.default"])
            ])
        let identity = LinkedIdentity(
            providerID: "microsoft.com", issuer: "https://login.example/8eaef023-2b34-4da1-9baa-8bc8c9d6a490/v2.0",
            federatedID: "app-golden",
            profile: Profile(), linkedAt: created, tokens: tokens, workload: client)
        return User(
            uid: uid, email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: created, lastSignInAt: created,
            lastAuthAt: created, lastProviderID: "microsoft.com", providerData: [identity], kind: .workload)
    }

    static let expected = AccountState(
        currentUID: "uid-workload-0000000000000000", users: [workloadUser(.federatedTokenService(.githubActions))])

    /// Every way a workload authenticates, one user each.
    static let everySource: [WorkloadAuthentication] = [
        .secretEnvironment("AZ_SECRET"), .secretFile("/run/secret"), .certificateFile("/ci/app.pem"),
        .federatedTokenFile("/var/run/token"), .federatedTokenEnvironment("CI_JOB_JWT"), .federatedTokenService(.githubActions),
    ]

    @Test("a workload user reads as the expected values and is written back as exactly that file")
    func roundTrip() throws {
        #expect(try KeystoreFile.decode(Data(Self.golden.utf8), path: "golden").state == Self.expected)
        let written = try KeystoreFile(Self.expected).encodedForWriting(path: "golden")
        #expect(String(decoding: written, as: UTF8.self) == Self.golden)
    }

    @Test("every authentication source is stored as where to read it, and read back the same")
    func everySourceRoundTrips() throws {
        for source in Self.everySource {
            let state = AccountState(users: [Self.workloadUser(source)])
            let data = try KeystoreFile(state).encoded()
            #expect(try KeystoreFile.decode(data, path: "w").state == state)
        }
    }

    /// A workload of the JWT-bearer grant (`login --jwt-bearer`): its token's source and its
    /// client's own authentication, `grant: "jwt-bearer"` in the file.
    static func jwtBearerUser(_ authentication: WorkloadAuthentication) -> User {
        var user = workloadUser(authentication, uid: "uid-workload-jwt-bearer-000000")
        user.providerData[0].workload?.jwtBearerAssertion = .federatedTokenFile("/var/run/secrets/tokens/as")
        return user
    }

    @Test("a JWT-bearer workload, public or confidential, is written with grant jwt-bearer and read back the same")
    func jwtBearerRoundTrips() throws {
        for source in [WorkloadAuthentication.none, .secretEnvironment("AGENT_SECRET"), .certificateFile("/ci/app.pem")] {
            let state = AccountState(users: [Self.jwtBearerUser(source)])
            let data = try KeystoreFile(state).encoded()
            #expect(String(decoding: data, as: UTF8.self).contains("\"grant\" : \"jwt-bearer\""))
            #expect(try KeystoreFile.decode(data, path: "w").state == state)
        }
    }

    /// Every field name of the workload records, for the schema test.
    static var fieldNames: Set<String> {
        let state = AccountState(users: everySource.map { workloadUser($0) } + [jwtBearerUser(.none)])
        guard let data = try? KeystoreFile(state).encoded(), let object = JSONValue.object(from: data) else { return [] }
        return KeystoreFormatTests.fieldNames(in: .object(object))
    }

    @Test("a user without kind (every file before workloads) reads as a person, and is written without kind")
    func olderFilesArePeople() throws {
        let state = try KeystoreFile.decode(Data(KeystoreFormatTests.oldest.utf8), path: "old").state
        #expect(state.users.allSatisfy { $0.kind == .person && $0.providerData.allSatisfy { $0.workload == nil } })
        #expect(!String(decoding: try KeystoreFile(state).encoded(), as: UTF8.self).contains("\"kind\""))
    }

    @Test("an unknown kind is refused, never read as a person")
    func unknownKind() throws {
        let edited = Self.golden.replacingOccurrences(of: "\"kind\" : \"workload\"", with: "\"kind\" : \"robot\"")
        #expect(edited != Self.golden)
        #expect(throws: AuthError.self) { try KeystoreFile.decode(Data(edited.utf8), path: "edited") }
    }
}
