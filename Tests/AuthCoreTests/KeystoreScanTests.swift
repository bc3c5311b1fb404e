import Foundation
import Testing

@testable import AuthCore

@Suite("The hot path's keystore scan")
final class KeystoreScanTests {
    let directory = NSTemporaryDirectory() + "authctl-scan-\(UUID().uuidString)"
    var path: String { directory + "/keystore.json" }
    var keystore: FileKeystore { FileKeystore(path: path, random: SystemRandomSource(), clock: SystemClock()) }

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
        #expect(try KeystoreFile.decoder.decode(KeystoreRecord.User.self, from: data[range]).domain == state.users[current])
        #expect(try keystore.readCurrentUser() == AccountState(currentUID: state.currentUID, users: [state.users[current]]))
    }

    /// The scan of the file itself, through windows so small that every token, key and run
    /// of backslashes straddles one (and through the default window).
    func scanFile(window: Int) throws -> KeystoreScan.Found? {
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        try #require(fd >= 0)
        return KeystoreScan.currentUser(inFile: fd, window: window)
    }

    @Test(
        "read through a small window, a large keystore gives the same record as read whole, wherever the current user is",
        arguments: [(0, 1), (7, 2), (19, 3), (19, 7), (11, 64), (0, 65536), (19, 65536)])
    func findsCurrentUserThroughAWindow(current: Int, window: Int) async throws {
        let state = state(users: 20, current: current)
        try await write(state)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try scanFile(window: window) == KeystoreScan.currentUser(in: data))
        #expect(try scanFile(window: window)?.user != nil)
    }

    @Test(
        "through a window, what it does not understand it leaves to the full decoder, and a current uid after the users is found",
        arguments: [1, 3, 65536])
    func windowAgreesOnOddFiles(window: Int) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let files =
            Self.oddFiles + [
                #"{"users": [{"uid": "b", "x": "\\"}, {"uid": "a", "y": "\"]\\\""}], "version": 1, "currentUid": "a"}"#,
                #"{"version": 1, "currentUid": "a", "users": [{"uid": "a"}, {"uid": "a", "n": 2}]}"#,
                #"{"version": 1, "currentUid": "z", "users": [{"uid": "a"}]}"#,
                #"{"version": 1, "users": [{"uid": "a"}]}"#,
            ]
        for content in files {
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            #expect(try scanFile(window: window) == KeystoreScan.currentUser(in: Data(content.utf8)), "\(content)")
        }
        #expect(try scanFile(window: window)?.version == 1)
    }

    static let oddFiles = [
        #"{"version": 1, "currentUid": "a\u0062", "users": []}"#,  // an escape in the uid
        #"{"version": "1", "currentUid": "a", "users": []}"#,  // a string version
        #"{"version": 1, "currentUid": "a", "users": {}}"#,  // users not an array
        #"{"version": 1, "currentUid": "a", "users": [{"uid": "a", }]}"#,  // a trailing comma
        #"{"version": 1, "currentUid": "a", "users": [] } trailing"#,
        #"{"currentUid": "a", "users": []}"#,  // no version
        "",
    ]

    @Test("authctl writes the current user's record first, and the scan reads no further (version from the file's end)")
    func stopsAtTheCurrentUser() async throws {
        let state = state(users: 20, current: 13)
        try await write(state)
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        let found = try #require(KeystoreScan.currentUser(in: data))
        let range = try #require(found.user)
        #expect(try KeystoreFile.decoder.decode(KeystoreRecord.User.self, from: data[range]).domain == state.users[13])
        #expect(String(decoding: data[..<range.lowerBound], as: UTF8.self).contains("\"users\" : ["), "the first record")
        // Whatever follows the record is not read: overwrite it all but the end with spaces.
        let end = try #require(String(decoding: data, as: UTF8.self).range(of: "\"version\"", options: .backwards))
        let versionAt = String(decoding: data, as: UTF8.self).utf8.distance(
            from: String(decoding: data, as: UTF8.self).startIndex, to: end.lowerBound)
        data.replaceSubrange(range.upperBound..<(versionAt - 4), with: Data(repeating: 0x20, count: versionAt - 4 - range.upperBound))
        try data.write(to: URL(fileURLWithPath: path))
        #expect(KeystoreScan.currentUser(in: data) == found)
        #expect(try scanFile(window: 7) == found && scanFile(window: 65536) == found)
        // An end that is not `"version" : N }` is scanned whole (here: and refused).
        var untidy = data
        untidy.append(contentsOf: Array(" x".utf8))
        #expect(KeystoreScan.currentUser(in: untidy) == nil)
    }

    @Test("users use moves the current user's record to the front of the file; lists keep the order of creation")
    func currentFirstOnDisk() async throws {
        var state = state(users: 3, current: 0)
        for index in state.users.indices { state.users[index].createdAt = Date(timeIntervalSince1970: 1_790_000_000 + Double(index)) }
        try await write(state)
        try await keystore.update { $0.currentUID = state.users[2].uid }
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        let positions = state.users.map { text.range(of: "\"uid\" : \"\($0.uid)\"")?.lowerBound }
        #expect(positions[2]! < positions[0]! && positions[0]! < positions[1]!, "the current user first, the others as they were")
        #expect(try keystore.read().usersByCreation.map(\.uid) == state.users.map(\.uid))
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

    /// A member given twice (`currentUid`, `users`, `version`, `sealing`): JSON leaves the choice
    /// open and JSONDecoder takes the first; the scan took the last it read, so `token` and
    /// `status` spoke for another user than `users list` did. Whatever it reads twice, the scan
    /// leaves to the full decoder, and every command agrees on the first.
    @Test(
        "a member given twice: the scan leaves it to the full decoder, and every reading takes the first",
        arguments: [
            "currentUid", "users",
        ])
    func repeatedMember(member: String) async throws {
        let state = state(users: 3, current: 0)
        try await write(state)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        switch member {
        case "currentUid":
            let line = #""currentUid" : "\#(state.users[0].uid)","#
            #expect(text.contains(line))
            text = text.replacingOccurrences(of: line, with: line + #" "currentUid" : "\#(state.users[2].uid)","#)
        default:
            // An empty `users` before the one that holds the records.
            text = text.replacingOccurrences(of: #""users" : ["#, with: #""users" : [], "users" : ["#)
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(KeystoreScan.currentUser(in: Data(text.utf8)) == nil)
        let whole = try keystore.read()
        #expect(whole.currentUID == state.users[0].uid)
        #expect(whole.users.count == (member == "users" ? 0 : 3))
        let current = try keystore.readCurrentUser()
        #expect(current.currentUID == whole.currentUID)
        #expect(current.users.map(\.uid) == whole.users.filter { $0.uid == whole.currentUID }.map(\.uid))
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

@Suite("A rule's user read alone from the keystore")
final class KeystoreReadUserTests {
    let directory = NSTemporaryDirectory() + "authctl-readuser-\(UUID().uuidString)"
    var keystore: FileKeystore { FileKeystore(path: directory + "/keystore.json", random: SystemRandomSource(), clock: SystemClock()) }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    @Test("readUser(uid:) gives that user's record, current or not, and nothing for an unknown uid", arguments: [0, 5, 9])
    func readsOneUser(index: Int) async throws {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let users = (0..<10).map { n in
            User(
                uid: "uid-\(n)-" + String(repeating: "y", count: 20), email: "u\(n)@example.com", emailVerified: true, displayName: nil,
                photoURL: nil, createdAt: date, lastSignInAt: date, lastAuthAt: date, lastProviderID: "oidc.a",
                providerData: [
                    LinkedIdentity(
                        providerID: "oidc.a", issuer: "https://idp.example", federatedID: "s\(n)", profile: Profile(), linkedAt: date,
                        tokens: TokenSet(accessToken: "at-\(n)", expiresAt: date, refreshToken: nil, idToken: nil, scopes: []))
                ])
        }
        let state = AccountState(currentUID: users[3].uid, users: users)
        try await keystore.update { $0 = state }
        let read = try keystore.readUser(uid: users[index].uid)
        #expect(read.users == [users[index]])
        #expect(read.currentUID == users[3].uid)
        #expect(try keystore.readUser(uid: "nobody-" + String(repeating: "z", count: 20)).users.isEmpty)
    }
}
