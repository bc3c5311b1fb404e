import AuthCore
import AuthCoreTestSupport
import Foundation
import Synchronization
import Testing

@Suite("Keystore file (docs/keystore.md)")
final class KeystoreTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "authctl-keystore-\(UUID().uuidString)"
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var path: String { directory + "/nested/keystore.json" }
    var keystore: FileKeystore { FileKeystore(path: path, random: SystemRandomSource(), lockTimeout: 2, clock: SystemClock()) }

    static func sampleUser(_ uid: String) -> User {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        return User(
            uid: uid, email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil, createdAt: date,
            lastSignInAt: date, lastAuthAt: date, lastProviderID: "oidc.a", providerData: [])
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test("a new keystore is created 0600 in a 0700 directory, and reads back")
    func createsPrivately() async throws {
        try await keystore.update { $0.users.append(Self.sampleUser("u1")) }
        #expect(try mode(path) == 0o600)
        #expect(try mode(directory + "/nested") == 0o700)
        #expect(try keystore.read().users.map(\.uid) == ["u1"])
        let json = try #require(JSONValue.object(from: Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(json["version"] == .number(1))
    }

    @Test("a keystore others can read is refused with the chmod fix")
    func unsafePermissions() async throws {
        try await keystore.update { $0.users.append(Self.sampleUser("u1")) }
        chmod(path, 0o644)
        #expect { try keystore.read() } throws: {
            ($0 as? AuthError)?.code == .keystoreError && ($0 as? AuthError)?.message.contains("chmod 600") == true
        }
    }

    @Test("a symlinked keystore is refused")
    func symlink() async throws {
        try await keystore.update { $0.users.append(Self.sampleUser("u1")) }
        let link = directory + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect { try FileKeystore(path: link, random: SystemRandomSource(), clock: SystemClock()).read() } throws: {
            ($0 as? AuthError)?.message.contains("symbolic link") == true
        }
    }

    @Test(
        "a corrupt keystore is refused and never overwritten",
        arguments: [#"{"version": 1, "users": "#, "[]", #"{"users": []}"#, #"{"version": 99, "users": []}"#])
    func corrupt(content: String) async throws {
        try FileManager.default.createDirectory(atPath: directory + "/nested", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(content.utf8), attributes: [.posixPermissions: 0o600])
        await #expect(throws: AuthError.self) { try await keystore.update { $0.users.append(Self.sampleUser("u1")) } }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == content)
        // The hot path's read refuses it the same way, with the same message.
        var messages: [String] = []
        for read in [{ try self.keystore.read() }, { try self.keystore.readCurrentUser() }] {
            do {
                _ = try read()
                Issue.record("read a corrupt keystore: \(content)")
            } catch let error as AuthError {
                #expect(error.code == .keystoreError && error.message.contains(path))
                messages.append(error.message.description)
            }
        }
        #expect(messages.count == 2 && messages[0] == messages[1])
        if content.contains("99") { #expect(messages[0].contains("newer authctl")) }
        if content == #"{"users": []}"# { #expect(messages[0].contains("no version")) }
    }

    @Test("readCurrentUser decodes the current user alone, and nothing when nobody is signed in")
    func currentUserOnly() async throws {
        try await keystore.update { state in
            state.users = (1...50).map { Self.sampleUser("user-\($0)") }
            state.currentUID = "user-37"
        }
        let session = try keystore.readCurrentUser()
        #expect(session.currentUID == "user-37" && session.users.map(\.uid) == ["user-37"])
        #expect(session.currentUser == (try keystore.read()).currentUser)
        try await keystore.update { $0.currentUID = nil }
        #expect(try keystore.readCurrentUser() == AccountState())
    }

    @Test("a change that fails leaves the file byte-for-byte as it was")
    func failedChange() async throws {
        try await keystore.update { $0.users.append(Self.sampleUser("u1")) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        await #expect(throws: AuthError.self) {
            try await keystore.update { state in
                state.users.removeAll()
                throw AuthError.invalidCredential("refused")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory + "/nested").filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test("concurrent updates through separate locks lose nothing")
    func concurrentUpdates() async throws {
        let path = self.path
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await FileKeystore(path: path, random: SystemRandomSource(), lockTimeout: 30, clock: SystemClock()).update {
                        $0.users.append(Self.sampleUser("u\(index)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try keystore.read().users.count == 20)
    }

    @Test("a keystore that stays locked fails with keystore-error after the lock timeout, on the clock it was given")
    func lockTimeout() async throws {
        let holder = try await FileLock.acquire(for: path, timeout: 1, what: "the keystore", clock: SystemClock())
        defer { holder.release() }
        // A fixed clock moves as it is slept on: the 30 s pass at once.
        let clock = FixedClock()
        await #expect {
            try await FileKeystore(path: path, random: SystemRandomSource(), lockTimeout: 30, clock: clock).update { $0.currentUID = "x" }
        } throws: {
            ($0 as? AuthError)?.code == .keystoreError
        }
        #expect(clock.now().timeIntervalSince(FixedClock().now()) >= 30)
    }

    @Test("a wait for the lock is told once, after a second of the clock")
    func lockWaitingTold() async throws {
        let holder = try await FileLock.acquire(for: path, timeout: 1, what: "the keystore", clock: SystemClock())
        defer { holder.release() }
        let told = Mutex<[Int32?]>([])
        await #expect(throws: AuthError.self) {
            _ = try await FileLock.acquire(for: path, timeout: 3, what: "the keystore", clock: FixedClock()) { pid in
                told.withLock { $0.append(pid) }
            }
        }
        // The holder is this process, whose own POSIX lock F_GETLK does not report: no pid.
        #expect(told.withLock { $0 }.count == 1)
    }
}
