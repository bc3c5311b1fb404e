import AuthCore
import Foundation
import Testing

@Suite("users export and import")
struct UserExportTests {
    let created = Date(timeIntervalSince1970: 1_790_000_000)

    /// Two users: one with two identities and every profile field, one with nothing but an identity.
    var state: AccountState {
        let tokens = TokenSet(
            accessToken: "at-secret", expiresAt: created, refreshToken: "rt-secret", idToken: "id-secret", scopes: ["openid"])
        let ada = User(
            uid: "SkO_IqrcU1rCeT1qpnrN74soflKv", email: "ada@example.com", emailVerified: true, displayName: "Ada Lovelace",
            photoURL: "https://example.com/ada.png", createdAt: created, lastSignInAt: created.addingTimeInterval(600),
            lastAuthAt: created.addingTimeInterval(600), lastProviderID: "microsoft.com",
            providerData: [
                LinkedIdentity(
                    providerID: "microsoft.com", issuer: "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0",
                    federatedID: "4b2eabcdef012345",
                    profile: Profile(email: "ada@example.com", emailVerified: true, displayName: "Ada Lovelace"),
                    linkedAt: created, tokens: tokens),
                LinkedIdentity(
                    providerID: "oidc.example-provider", issuer: "https://auth.example.com", federatedID: "248289761001",
                    profile: Profile(
                        email: "ada@home.example", emailVerified: true, displayName: "Ada", photoURL: "https://example.com/ada.png"),
                    linkedAt: created.addingTimeInterval(60), tokens: tokens),
            ])
        let anonymous = User(
            uid: "x1Y2z3_-abcdefghijklmnopqrs", email: nil, emailVerified: false, displayName: nil, photoURL: nil,
            createdAt: created.addingTimeInterval(1000), lastSignInAt: created.addingTimeInterval(1000),
            lastAuthAt: created.addingTimeInterval(1000), lastProviderID: "apple.com",
            providerData: [
                LinkedIdentity(
                    providerID: "apple.com", issuer: "https://appleid.apple.com", federatedID: "001234.abcdef0123456789.1234",
                    profile: Profile(), linkedAt: created.addingTimeInterval(1000), tokens: nil)
            ])
        return AccountState(currentUID: ada.uid, users: [ada, anonymous])
    }

    static func fixture(_ name: String) throws -> Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)")
        return try Data(contentsOf: url)
    }

    @Test("the firebase export is the users[]/providerUserInfo[] document of Firebase's auth:export")
    func firebaseShape() throws {
        let exported = try #require(JSONValue.object(from: try UserExport.export(state, format: .firebase)))
        let expected = try #require(JSONValue.object(from: try Self.fixture("firebase-auth-export.json")))
        #expect(exported == expected)
        // Only keys Firebase's exporter writes, and its types: times are strings of epoch milliseconds.
        let userKeys: Set<String> = [
            "localId", "email", "emailVerified", "displayName", "photoUrl", "createdAt", "lastSignedInAt", "providerUserInfo",
        ]
        let providerKeys: Set<String> = ["providerId", "rawId", "email", "displayName", "photoUrl"]
        for user in exported["users"]?.arrayValue ?? [] {
            let fields = try #require(user.objectValue)
            #expect(Set(fields.keys).isSubset(of: userKeys))
            #expect(fields["createdAt"]?.stringValue?.allSatisfy(\.isNumber) == true)
            for info in fields["providerUserInfo"]?.arrayValue ?? [] {
                #expect(Set((info.objectValue ?? [:]).keys).isSubset(of: providerKeys))
            }
        }
    }

    @Test("no export carries a token")
    func noTokens() throws {
        for format in UserExport.Format.allCases {
            let text = String(decoding: try UserExport.export(state, format: format), as: UTF8.self)
            #expect(!text.contains("secret"), "\(format)")
        }
    }

    @Test("the authctl export round-trips losslessly, oidc providers included, and imported users are signed out")
    func roundTrip() throws {
        let exported = try UserExport.export(state, format: .authctl)
        var imported = AccountState()
        let result = try UserExport.merge(try UserExport.parse(exported, file: "users.json"), into: &imported)
        #expect(result.imported == state.users.map(\.uid) && result.unchanged.isEmpty)
        #expect(imported.currentUID == nil)
        #expect(imported.users.allSatisfy { $0.providerData.allSatisfy { $0.tokens == nil } })
        var withoutTokens = state
        for index in withoutTokens.users.indices {
            for identity in withoutTokens.users[index].providerData.indices {
                withoutTokens.users[index].providerData[identity].tokens = nil
            }
        }
        #expect(imported.users == withoutTokens.users)
        #expect(try UserExport.export(imported, format: .authctl) == exported, "export → import → export is byte-identical")
    }

    @Test("importing into a keystore that has the same users changes nothing; another record under the same uid refuses everything")
    func importConflicts() throws {
        let exported = try UserExport.export(state, format: .authctl)
        var keystore = state
        let again = try UserExport.merge(try UserExport.parse(exported, file: "f"), into: &keystore)
        #expect(again.imported.isEmpty && again.unchanged.count == 2 && keystore == state)

        var changed = state
        changed.users[1].displayName = "Someone"
        let before = changed
        #expect { try UserExport.merge(try UserExport.parse(exported, file: "f"), into: &changed) } throws: {
            ($0 as? AuthError)?.code == .invalidArgument
        }
        #expect(changed == before)

        var stolen = AccountState(users: [state.users[1]])
        stolen.users[0].uid = "another-uid-that-has-apple"
        #expect { try UserExport.merge(try UserExport.parse(exported, file: "f"), into: &stolen) } throws: {
            ($0 as? AuthError)?.code == .credentialAlreadyInUse
        }
        #expect(stolen.users.count == 1, "all or nothing")
    }

    @Test("import refuses a Firebase export, a foreign document and malformed users, naming the file")
    func importRefusals() throws {
        let firebase = try UserExport.export(state, format: .firebase)
        #expect { try UserExport.parse(firebase, file: "fb.json") } throws: { ($0 as? AuthError)?.message.contains("Firebase") == true }
        #expect { try UserExport.parse(Data("[1]".utf8), file: "x.json") } throws: {
            ($0 as? AuthError)?.message.contains("x.json") == true
        }
        let badProvider = String(decoding: try UserExport.export(state, format: .authctl), as: UTF8.self)
            .replacingOccurrences(of: "oidc.example-provider", with: "Not A Provider")
        #expect(throws: AuthError.self) { try UserExport.parse(Data(badProvider.utf8), file: "f") }
        let badUID = String(decoding: try UserExport.export(state, format: .authctl), as: UTF8.self)
            .replacingOccurrences(of: "x1Y2z3_-abcdefghijklmnopqrs", with: "../../etc/passwd")
        #expect(throws: AuthError.self) { try UserExport.parse(Data(badUID.utf8), file: "f") }
    }
}
