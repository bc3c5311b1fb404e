import Foundation
import Testing

@testable import AuthCore

@Suite("The hot path's keystore scan")
final class KeystoreScanTests {
    let directory = NSTemporaryDirectory() + "authctl-scan-\(UUID().uuidString)"
    var path: String { directory + "/keystore.json" }
    var keystore: FileKeystore { FileKeystore(path: path, random: SystemRandomSource()) }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Users whose records hold everything that could confuse a scanner: quotes, brackets,
    /// backslashes and braces inside strings, non-ASCII text, a pending credential.
    func state(users count: Int, current: Int?) -> AccountState {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let users = (0..<count).map { index in
            User(
                uid: "uid-\(index)-" + String(repeating: "x", count: 20), email: "u\(index)@example.com", emailVerified: index % 2 == 0,
                displayName: #"Ada "the \ countess" {of} [Lovelace] ✓ "# + "\(index)", photoURL: nil, createdAt: date,
                lastSignInAt: date, lastAuthAt: date, lastProviderID: "oidc.a",
                providerData: [
                    LinkedIdentity(
                        providerID: "oidc.a", issuer: "https://idp.example/{tenant}", federatedID: "\"sub\"-\(index)",
                        profile: Profile(email: "u\(index)@example.com", emailVerified: true, displayName: "]}\\\""), linkedAt: date,
                        tokens: TokenSet(
                            accessToken: "at-\(index)", expiresAt: date, refreshToken: "rt-\(index)", idToken: nil, scopes: ["openid"]))
                ])
        }
        return AccountState(currentUID: current.map { users[$0].uid }, users: users)
    }

    func write(_ state: AccountState) async throws {
        try await keystore.update { $0 = state }
    }

    @Test("it finds exactly the current user's record, first, middle or last, among tricky strings", arguments: [0, 7, 19])
    func findsCurrentUser(current: Int) async throws {
        let state = state(users: 20, current: current)
        try await write(state)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let found = try #require(KeystoreScan.currentUser(in: data))
        #expect(found.version == 1 && found.currentUID == state.currentUID)
        let range = try #require(found.user)
        #expect(try KeystoreFile.decoder.decode(User.self, from: data[range]) == state.users[current])
        #expect(try keystore.readCurrentUser() == AccountState(currentUID: state.currentUID, users: [state.users[current]]))
    }

    @Test("nobody signed in, or a current uid that no user has")
    func noCurrentUser() async throws {
        try await write(state(users: 3, current: nil))
        #expect(KeystoreScan.currentUser(in: try Data(contentsOf: URL(fileURLWithPath: path)))?.user == nil)
        #expect(try keystore.readCurrentUser() == AccountState())
        var dangling = state(users: 3, current: 1)
        dangling.currentUID = "nobody-has-this-uid-at-all"
        try await write(dangling)
        #expect(try keystore.readCurrentUser() == AccountState(currentUID: "nobody-has-this-uid-at-all", users: []))
    }

    @Test(
        "what it does not understand, it leaves to the full decoder",
        arguments: [
            #"{"version": 1, "currentUid": "a\u0062", "users": []}"#,  // an escape in the uid
            #"{"version": "1", "currentUid": "a", "users": []}"#,  // a string version
            #"{"version": 1, "currentUid": "a", "users": {}}"#,  // users not an array
            #"{"version": 1, "currentUid": "a", "users": [{"uid": "a", }]}"#,  // a trailing comma
            #"{"version": 1, "currentUid": "a", "users": [] } trailing"#,
            #"{"currentUid": "a", "users": []}"#,  // no version
            "",
        ])
    func bailsOut(content: String) {
        #expect(KeystoreScan.currentUser(in: Data(content.utf8)) == nil)
    }
}
