import FoundationEssentials
import Glibc

// The floor of KeystoreFloor with FoundationEssentials only (no ICU, no
// FoundationInternationalization, no swift-corelibs-foundation), as authctl builds since
// issue 14: same shape, same decoder settings, output with write(2).
struct Keystore: Decodable {
    struct User: Decodable {
        struct Identity: Decodable {
            struct Tokens: Decodable {
                var accessToken: String?
                var expiresAt: Date?
            }
            var providerId: String
            var tokens: Tokens?
        }
        var uid: String
        var lastProviderId: String?
        var providerData: [Identity]
    }
    var version: Int
    var currentUid: String?
    var users: [User]
}

/// Reads and decodes the keystore at `path` and prints the current user's access token
/// (exit 6: unreadable; 16: no valid token), as `authctl token` does.
public func printCurrentToken(keystore path: String) {
    guard let data = FileManager.default.contents(atPath: path) else { exit(6) }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    guard let keystore = try? decoder.decode(Keystore.self, from: data),
        let user = keystore.users.first(where: { $0.uid == keystore.currentUid }),
        let identity = user.providerData.first(where: { $0.providerId == user.lastProviderId }),
        let token = identity.tokens?.accessToken, let expiry = identity.tokens?.expiresAt, expiry.timeIntervalSinceNow > 60
    else { exit(16) }
    let line = Array((token + "\n").utf8)
    _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}
