import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What another local user can do to a keystore's directory, lock and temporary files
/// (issue 12, items 2, 4 and 13).
@Suite("Keystore against another user on the machine", .serialized)
final class KeystoreAttackTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "authctl-attack-\(UUID().uuidString)"
    }

    deinit {
        chmod(directory + "/ks", 0o700)
        try? FileManager.default.removeItem(atPath: directory)
    }

    var folder: String { directory + "/ks" }
    var path: String { folder + "/keystore.json" }
    var keystore: FileKeystore { FileKeystore(path: path, random: SystemRandomSource(), lockTimeout: 2, clock: SystemClock()) }

    func written() async throws -> Data {
        try await keystore.update {
            $0.users.append(KeystoreTests.sampleUser("u1")); $0.currentUID = "u1"
        }
        return try #require(FileManager.default.contents(atPath: path))
    }

    func expectRefused(_ mention: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        for read in [{ try self.keystore.read() }, { try self.keystore.readCurrentUser() }] {
            #expect(throws: AuthError.self, sourceLocation: sourceLocation) { _ = try read() }
            do { _ = try read() } catch let error as AuthError {
                #expect(error.code == .keystoreError && error.message.contains(mention), "\(error.message)", sourceLocation: sourceLocation)
            } catch {}
        }
        await #expect(sourceLocation: sourceLocation) {
            try await self.keystore.update { $0.currentUID = nil }
        } throws: {
            ($0 as? AuthError)?.code == .keystoreError && ($0 as? AuthError)?.message.contains(mention) == true
        }
    }

    @Test(
        "a keystore in a directory of one's own that its group can write to is refused with the chmod 700 fix", arguments: [0o770, 0o720])
    func writableDirectory(mode: Int) async throws {
        let before = try await written()
        chmod(folder, mode_t(mode))
        await expectRefused("chmod 700 '\(folder)'")
        #expect(FileManager.default.contents(atPath: path) == before)
        chmod(folder, 0o755)
        #expect(try keystore.read().users.count == 1, "a directory others may only read and enter is fine")
    }

    @Test(
        "a keystore in a shared directory (every user may write, or the sticky bit of /tmp) is refused with a private place, never a chmod",
        arguments: [0o777, 0o1777, 0o722, 0o1770])
    func sharedDirectory(mode: Int) async throws {
        let before = try await written()
        chmod(folder, mode_t(mode))
        await expectRefused("a directory of your own")
        do { _ = try keystore.read() } catch let error as AuthError {
            #expect(!error.message.contains("chmod"), "chmod on a shared directory breaks the other users: \(error.message)")
        }
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    @Test("a keystore right under /tmp is never advised to chmod /tmp")
    func keystoreUnderTmp() throws {
        let keystore = FileKeystore(
            path: "/tmp/authctl-no-such-keystore-\(UUID().uuidString).json", random: SystemRandomSource(), clock: SystemClock())
        #expect(throws: AuthError.self) { _ = try keystore.read() }
        do { _ = try keystore.read() } catch let error as AuthError {
            #expect(!error.message.contains("chmod"), "\(error.message)")
            #expect(error.message.contains("a directory of your own"), "\(error.message)")
        }
    }

    @Test("a keystore in a directory owned by another user is refused")
    func foreignDirectory() async throws {
        let before = try await written()
        chown(folder, 65534, 65534)
        defer { chown(folder, 0, 0) }
        await expectRefused("belongs to another user")
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    @Test("a FIFO in place of the keystore is refused at once, not read")
    func fifoKeystore() async throws {
        _ = try await written()
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        await expectRefused("not a regular file")
    }

    @Test("a lock file that is a FIFO, a symlink, another user's or readable by others is refused rather than used")
    func hostileLock() async throws {
        let before = try await written()
        let lock = path + ".lock"
        unlink(lock)
        #expect(mkfifo(lock, 0o600) == 0)
        await #expect { try await self.keystore.update { $0.currentUID = nil } } throws: {
            ($0 as? AuthError)?.code == .keystoreError && ($0 as? AuthError)?.message.contains("not a regular file") == true
        }
        unlink(lock)
        let elsewhere = directory + "/elsewhere.lock"
        _ = FileManager.default.createFile(atPath: elsewhere, contents: nil, attributes: [.posixPermissions: 0o600])
        symlink(elsewhere, lock)
        await #expect { try await self.keystore.update { $0.currentUID = nil } } throws: {
            ($0 as? AuthError)?.code == .keystoreError && ($0 as? AuthError)?.message.contains("symbolic link") == true
        }
        unlink(lock)
        _ = FileManager.default.createFile(atPath: lock, contents: nil, attributes: [.posixPermissions: 0o644])
        await #expect { try await self.keystore.update { $0.currentUID = nil } } throws: {
            ($0 as? AuthError)?.code == .keystoreError && ($0 as? AuthError)?.message.contains("chmod 600") == true
        }
        chmod(lock, 0o600)
        chown(lock, 65534, 65534)
        await #expect { try await self.keystore.update { $0.currentUID = nil } } throws: {
            ($0 as? AuthError)?.code == .keystoreError && ($0 as? AuthError)?.message.contains("another user") == true
        }
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    @Test("temporary files a writer killed mid-write left behind are removed by the next write, and nothing else is")
    func staleTemporaries() async throws {
        _ = try await written()
        let stale = folder + "/.keystore.json.tmp-4242-AAAAAAAA"
        let foreign = folder + "/.keystore.json.tmp-4243-BBBBBBBB"
        let unrelated = folder + "/.other.json.tmp-4244-CCCCCCCC"
        let linked = folder + "/.keystore.json.tmp-4245-DDDDDDDD"
        let target = directory + "/target"
        for file in [stale, foreign, unrelated, target] {
            _ = FileManager.default.createFile(atPath: file, contents: Data("rt-secret".utf8), attributes: [.posixPermissions: 0o600])
        }
        chown(foreign, 65534, 65534)
        symlink(target, linked)
        try await keystore.update { $0.currentUID = nil }
        #expect(!FileManager.default.fileExists(atPath: stale), "ours, stale: removed")
        #expect(FileManager.default.fileExists(atPath: foreign), "another user's: left alone")
        #expect(FileManager.default.fileExists(atPath: unrelated), "not our pattern: left alone")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: linked)) == target, "a symlink: left alone")
        #expect(FileManager.default.fileExists(atPath: target))
        #expect(try keystore.read().currentUID == nil)
    }

    @Test("Ctrl-C while waiting for the keystore lock ends the wait at once and changes nothing")
    func cancelledLockWait() async throws {
        let before = try await written()
        let holder = try await FileLock.acquire(for: path, timeout: 1, what: "the keystore", clock: SystemClock())
        defer { holder.release() }
        let clock = ManualClock()
        let slow = FileKeystore(path: path, random: SystemRandomSource(), lockTimeout: 30, clock: clock)
        let waiting = Task { try await slow.update { $0.currentUID = nil } }
        await clock.untilWaiting()
        waiting.cancel()
        // Not cancelled, the wait would end in the 30 s lock timeout's keystore error instead.
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    /// Issue 22, item 7: a uid is a word on the user's command line (`users use UID`, shell
    /// completion); one planted with shell syntax or a terminal escape is damage, not a user.
    @Test(
        "a keystore whose uid holds what authctl never writes (shell syntax, an escape, too long) is refused as damage by every read, and left as it was",
        arguments: [
            "$(touch /tmp/authctl-planted)", "`touch /tmp/authctl-planted`", "u1\u{1b}]52;c;aGk=\u{07}", "u1 u2",
            String(repeating: "a", count: 129), "",
        ])
    func plantedUID(uid: String) async throws {
        let written = try await written()
        let quoted = String(decoding: try JSONEncoder().encode(uid), as: UTF8.self)
        let planted = Data(String(decoding: written, as: UTF8.self).replacingOccurrences(of: "\"u1\"", with: quoted).utf8)
        #expect(planted != written)
        #expect(FileManager.default.createFile(atPath: path, contents: planted, attributes: [.posixPermissions: 0o600]))
        await expectRefused("uid")
        for read in [{ try self.keystore.readProfiles() }, { try self.keystore.readCurrentUserProfile() }] {
            #expect {
                _ = try read()
            } throws: {
                ($0 as? AuthError)?.code == .keystoreError && ($0 as? AuthError)?.message.contains(self.path) == true
            }
        }
        #expect(FileManager.default.contents(atPath: path) == planted)
    }
}
