import AuthCoreTestSupport
import Testing

@testable import AuthCore

/// A uid is a command-line argument (`authctl users use UID`): one that began with `-` would
/// be read as an option (it did, once in 64 draws; a CI run failed on it).
@Suite("Fresh uids")
struct UIDTests {
    /// Draws that would make a uid start with `-` (0xF8: the 6 bits 111110, base64url's `-`),
    /// then ordinary ones.
    final class DashFirst: RandomSource, @unchecked Sendable {
        var draws = 0
        func bytes(count: Int) -> [UInt8] {
            draws += 1
            return draws <= 2 ? [UInt8](repeating: 0xF8, count: count) : [UInt8](repeating: 0x41, count: count)
        }
    }

    @Test("a uid never starts with '-', and stays random, URL-safe and 28 characters long")
    func noLeadingDash() {
        let store = KeystoreAccountStore(keystore: InMemoryKeystore(), clock: FixedClock(), random: DashFirst())
        let uid = store.context().newUID
        #expect(!uid.hasPrefix("-"), "\(uid)")
        #expect(uid.count == 28 && uid.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    }
}
