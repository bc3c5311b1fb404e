import Foundation
import Testing

@testable import AuthCore
@testable import CachedTokenCore

/// `CachedGitCredential` (the front's git-credential get, issue 37) held to AuthCore's
/// `GitCredentialDescription` and `GitCredential`: where the front reads a description, it reads
/// what the full program reads, decides the destination as it does and prints its lines.
struct CachedGitCredentialTests {
    static let descriptions: [String] = [
        "protocol=https\nhost=git.example.com\n\n", "capability[]=authtype\nprotocol=https\nhost=h\n\n",
        "capability[]=authtype\ncapability[]=\nprotocol=https\nhost=h\nusername=\n\n", "protocol=HTTPS\nhost=h\nusername=me\n",
        "protocol=http\nhost=localhost:8080\n\n", "protocol=http\nhost=[::1]:3\n\n", "protocol=http\nhost=LOCALHOST\n\n",
        "protocol=http\nhost=127.0.0.1\n\n", "protocol=http\nhost=example.com\n\n", "protocol=ssh\nhost=h\n\n",
        "host=h\n\n", "protocol=https\nprotocol=http\nhost=h\n\n", "=x\nprotocol=https\nhost=h\n\n",
        "protocol=https\nhost=h\npath=a/b.git\nwwwauth[]=Bearer realm=\"x\"\n\nmore=after\n", "protocol=http\nhost=[::1\n\n",
    ]

    @Test("a description the front reads is the full program's, with the same destination check", arguments: descriptions)
    func sameDescription(_ text: String) throws {
        let read = try #require(CachedGitCredential.description(Array(text.utf8)))
        let full = try GitCredentialDescription.parse(text)
        #expect(read.attributes.map { "\($0.key)=\($0.value)" } == full.attributes.map { "\($0.key)=\($0.value)" })
        #expect(read.announces("authtype") == full.announces(GitCredentialDescription.authTypeCapability))
        #expect(CachedGitCredential.isAllowedDestination(read) == ((try? GitCredential.checkDestination(full)) != nil))
    }

    @Test("the answer is GitCredential.answer's lines", arguments: descriptions)
    func sameAnswer(_ text: String) throws {
        let read = try #require(CachedGitCredential.description(Array(text.utf8)))
        let tokens = CachedTokens(accessToken: "at-1", tokenType: "Bearer", expiresAt: 4_000_000_000.5, scopes: [])
        let identity = CachedIdentity(providerId: "oidc.x", issuer: "https://i", federatedId: "f", tokens: tokens, email: "p@e")
        let user = CachedUser(uid: "u", lastProviderId: nil, providerData: [identity], email: "u@e")
        let bytes = CachedGitCredential.answer(read, provider: "oidc.x", user: user, now: 1_000_000_000)
        guard CachedGitCredential.isAllowedDestination(read) else {
            #expect(bytes == nil)
            return
        }
        let full = GitCredential.answer(
            to: try GitCredentialDescription.parse(text), token: "at-1", tokenType: "Bearer",
            expiresAt: Date(timeIntervalSince1970: 4_000_000_000.5), username: "p@e")
        #expect(bytes.map { String(decoding: $0, as: UTF8.self) } == (try full.encoded()))
    }

    @Test("descriptions the front leaves to the full program")
    func handedOver() {
        for text in [
            "", "\n", "protocol=https\r\nhost=h\r\n\r\n", "protocol=https\nhost=h", "protocol=https\nhost\n\n",
            "protocol=https\nhost=\u{fc}\n\n", "protocol=https\nhost=a\u{0}b\n\n", "protocol=https\nhost=a\tb\n\n",
            "x=" + String(repeating: "y", count: 8_200) + "\n\n",
        ] {
            #expect(CachedGitCredential.description(Array(text.utf8)) == nil, "\(text.prefix(40))")
        }
    }
}
