import AuthCore
import Foundation
import Testing

/// `users export` writes no secret of any kind, for any backend, and `users import` refuses a
/// file that carries one (issue 22, items 2 and 13).
@Suite("users export and import carry no secret")
struct UserExportSecretsTests {
    let created = Date(timeIntervalSince1970: 1_790_000_000)

    /// Every value below that starts with "SECRET-" is a secret: none may reach an export.
    func tokens(_ name: String) -> TokenSet {
        TokenSet(
            accessToken: "SECRET-at-\(name)", expiresAt: created.addingTimeInterval(3600), refreshToken: "SECRET-rt-\(name)",
            idToken: "SECRET-id-\(name)", scopes: ["openid"],
            additionalTokens: [
                "Mail.Read": ScopedAccessToken(
                    accessToken: "SECRET-scoped-\(name)", expiresAt: created.addingTimeInterval(3600), scopes: ["Mail.Read"])
            ])
    }

    /// A person of the local backend, a workload with a client secret file, a Firebase user
    /// with its session, and two pending credentials (one of them Firebase's).
    var state: AccountState {
        let person = User(
            uid: "person_uid_0123456789abcd", email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil,
            createdAt: created, lastSignInAt: created, lastAuthAt: created, lastProviderID: "oidc.example",
            providerData: [
                LinkedIdentity(
                    providerID: "oidc.example", issuer: "https://auth.example.com", federatedID: "248289761001",
                    profile: Profile(email: "ada@example.com", emailVerified: true), linkedAt: created, tokens: tokens("person"))
            ])
        let workload = User(
            uid: "workload_uid_0123456789ab", email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: created,
            lastSignInAt: created, lastAuthAt: created, lastProviderID: "oidc.example",
            providerData: [
                LinkedIdentity(
                    providerID: "oidc.example", issuer: "https://auth.example.com", federatedID: "ci-client", profile: Profile(),
                    linkedAt: created, tokens: tokens("workload"),
                    workload: WorkloadClient(
                        clientID: "ci-client", authentication: .secretFile("/home/ada/SECRET-client-secret-file"), scopes: ["api"]))
            ], kind: .workload)
        var firebase = User(
            uid: "firebase_uid_0123456789a", email: "grace@example.com", emailVerified: true, displayName: "Grace", photoURL: nil,
            createdAt: created, lastSignInAt: created, lastAuthAt: created, lastProviderID: "apple.com",
            providerData: [
                LinkedIdentity(
                    providerID: "apple.com", issuer: "https://appleid.apple.com", federatedID: "001234.abc.1234",
                    profile: Profile(email: "grace@example.com", emailVerified: true), linkedAt: created, tokens: tokens("apple"))
            ])
        firebase.backend = UserBackend(projectID: "demo-project", tenantID: nil, session: tokens("firebase-session"))
        var brokered = Credential(
            providerID: "apple.com", issuer: "https://appleid.apple.com", federatedID: "009.xyz.9", profile: Profile(),
            tokens: tokens("pending-brokered"), claims: IDTokenClaims(raw: ["nonce": .string("SECRET-nonce")]))
        brokered.brokered = BrokeredCredential(projectID: "demo-project", pendingToken: "SECRET-pending-token")
        let pending = [
            PendingCredential(
                handle: "pc_0123456789abcdef", reason: .accountExists, conflictingUID: person.uid, createdAt: created,
                credential: Credential(
                    providerID: "oidc.other", issuer: "https://other.example", federatedID: "77", profile: Profile(),
                    tokens: tokens("pending"), claims: IDTokenClaims(raw: ["nonce": .string("SECRET-nonce-2")]))),
            PendingCredential(
                handle: "pc_fedcba9876543210", reason: .credentialAlreadyInUse, conflictingUID: firebase.uid, createdAt: created,
                credential: brokered),
        ]
        return AccountState(currentUID: person.uid, users: [person, workload, firebase], pendingCredentials: pending)
    }

    /// Names of members that hold, or point at, a secret.
    static let forbiddenNames: Set<String> = [
        "tokens", "accessToken", "refreshToken", "idToken", "additionalTokens", "sealed", "session", "pendingToken",
        "pendingCredentials", "claims", "clientSecretEnv", "clientSecretFile", "certificateFile", "federatedTokenFile",
        "federatedTokenEnv", "federatedTokenSource", "privateKey", "key", "passphrase",
    ]

    /// Every member name and string of a JSON document, with the path to it.
    static func walk(_ value: JSONValue, _ path: String = "$", into found: inout [(path: String, name: String?, string: String?)]) {
        switch value {
        case .object(let members):
            for (name, member) in members {
                found.append((path + "." + name, name, nil))
                walk(member, path + "." + name, into: &found)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() { walk(element, path + "[\(index)]", into: &found) }
        case .string(let string):
            found.append((path, nil, string))
        default:
            break
        }
    }

    @Test(
        "an export of users of every kind, in both formats, holds no token, session, secret or key", arguments: UserExport.Format.allCases)
    func exportWalk(_ format: UserExport.Format) throws {
        let exported = try UserExport.export(state, format: format)
        let document = try #require(JSONValue.object(from: exported))
        var found: [(path: String, name: String?, string: String?)] = []
        Self.walk(.object(document), into: &found)
        for entry in found {
            if let name = entry.name {
                #expect(!Self.forbiddenNames.contains(name), "\(format): \(entry.path) is a secret's member")
                #expect(!name.lowercased().contains("token") && !name.lowercased().contains("secret"), "\(format): \(entry.path)")
            }
            if let string = entry.string { #expect(!string.contains("SECRET-"), "\(format): \(entry.path) holds \(string)") }
        }
        #expect(!String(decoding: exported, as: UTF8.self).contains("SECRET-"))
        // The users are all there.
        #expect(String(decoding: exported, as: UTF8.self).contains("workload_uid_0123456789ab"))
        #expect(String(decoding: exported, as: UTF8.self).contains("firebase_uid_0123456789a"))
    }

    @Test("the authctl export of users of every kind imports into an empty keystore, signed out, pointing at no credential file")
    func roundTrip() throws {
        let users = try UserExport.parse(try UserExport.export(state, format: .authctl), file: "f")
        #expect(users.count == 3)
        for user in users {
            #expect(user.backend?.session == nil)
            for identity in user.providerData {
                #expect(identity.tokens == nil)
                #expect(identity.workload == nil, "an import must not point authctl at files the user never named")
            }
        }
        #expect(users.first { $0.uid == "firebase_uid_0123456789a" }?.backend?.projectID == "demo-project")
        // Imported again into the keystore it came from: every user is there, unchanged.
        var same = state
        let result = try UserExport.merge(users, into: &same)
        #expect(result.unchanged.count == 3 && result.imported.isEmpty)
        #expect(same == state)
    }

    /// The authctl export of the state, with `change` applied to its first user of `uid`.
    func exportWith(_ uid: String, _ change: (inout [String: JSONValue]) -> Void) throws -> Data {
        var document = try #require(JSONValue.object(from: try UserExport.export(state, format: .authctl)))
        guard case .array(var users) = document["users"] else { throw AuthError.internalError("not an export") }
        for index in users.indices {
            guard case .object(var user) = users[index], user["uid"]?.stringValue == uid else { continue }
            change(&user)
            users[index] = .object(user)
        }
        document["users"] = .array(users)
        return try JSONEncoder().encode(JSONValue.object(document))
    }

    static func identity(_ user: inout [String: JSONValue], _ change: (inout [String: JSONValue]) -> Void) {
        guard case .array(var identities) = user["providerData"], case .object(var first) = identities.first else { return }
        change(&first)
        identities[0] = .object(first)
        user["providerData"] = .array(identities)
    }

    static let tokensMember: JSONValue = .object([
        "accessToken": "planted-at", "refreshToken": "planted-rt", "tokenType": "Bearer", "scopes": .array([]),
    ])

    @Test("import refuses a file whose user carries tokens, a sealed value, a Firebase session or a workload's credential source")
    func importRefusesSecrets() throws {
        let planted: [(String, Data)] = [
            ("tokens", try exportWith("person_uid_0123456789abcd") { user in Self.identity(&user) { $0["tokens"] = Self.tokensMember } }),
            (
                "sealed",
                try exportWith("person_uid_0123456789abcd") { user in
                    Self.identity(&user) { $0["tokens"] = .object(["tokenType": "Bearer", "scopes": .array([]), "sealed": "AAAA"]) }
                }
            ),
            (
                "session",
                try exportWith("firebase_uid_0123456789a") { user in
                    guard case .object(var backend) = user["backend"] else { return }
                    backend["session"] = Self.tokensMember
                    user["backend"] = .object(backend)
                }
            ),
            (
                "credential source",
                try exportWith("workload_uid_0123456789ab") { user in
                    Self.identity(&user) {
                        $0["workload"] = .object([
                            "clientId": "ci-client", "scopes": .array([]), "clientSecretFile": "/home/ada/.ssh/id_ed25519",
                        ])
                    }
                }
            ),
        ]
        for (what, data) in planted {
            #expect(String(decoding: data, as: UTF8.self).contains("planted") || what != "tokens")
            #expect(throws: AuthError.self, "an export with \(what) was accepted") { try UserExport.parse(data, file: "planted.json") }
        }
    }
}
