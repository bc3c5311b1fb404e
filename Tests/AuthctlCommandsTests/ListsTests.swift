import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Lists for people and for scripts (issue 15, item 9): aligned columns under a header on a
/// terminal, tab-separated rows otherwise; no colour with TERM=dumb. (HeadlessCommandsTests
/// shows the colours through a real pseudo-terminal.)
@Suite("lists on a terminal and in a pipe", .serialized)
final class ListsTests {
    let authctl = InProcessAuthctl()

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func addProviders() async throws {
        for (id, issuer, client) in [
            ("oidc.a", "https://idp.example", "c"),
            ("oidc.bee", "https://login.some-long-domain.example/realms/x", "client-with-a-long-id"),
        ] {
            #expect(try await authctl.run(["providers", "add", id, "--issuer", issuer, "--client-id", client, "--no-check"]).status == 0)
        }
    }

    @Test("providers list: aligned columns under a header on a terminal, tab-separated rows in a pipe")
    func providersList() async throws {
        try await addProviders()
        let lines = try await authctl.run(["providers", "list"], terminals: .all).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first?.hasPrefix("PROVIDER") == true, "a header: \(lines)")
        // Each column starts at the same place on every line.
        let issuerColumn = lines.map { $0.range(of: "https://")?.lowerBound.utf16Offset(in: $0) }
        #expect(Set(issuerColumn.dropFirst()).count == 1 && !lines.contains { $0.contains("\t") }, "\(lines)")
        let piped = try await authctl.run(["providers", "list"])
        #expect(
            piped.stdout
                == "oidc.a\thttps://idp.example\tc\noidc.bee\thttps://login.some-long-domain.example/realms/x\tclient-with-a-long-id\n")
    }

    @Test("users list: aligned columns under a header on a terminal; status --json signed out has no user")
    func usersList() async throws {
        let short = try FakeIdentityProvider(), long = try FakeIdentityProvider()
        short.update { $0.email = "a@b.example" }
        long.update {
            $0.subject = "someone-else"; $0.email = "grace.hopper@a-rather-long-domain.example"
        }
        for (id, provider) in [("oidc.a", short), ("oidc.longer-name", long)] {
            try await authctl.run(["providers", "add", id, "--issuer", provider.issuer, "--client-id", provider.clientID]).expectSuccess()
            try await authctl.run(["login", id, "--timeout", "120"]).expectSuccess()
        }
        let lines = try await authctl.run(["users", "list"], terminals: .all).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines.first?.contains("UID") == true && lines.first?.contains("EMAIL") == true, "\(lines)")
        let providerColumn = lines.dropFirst().map { line in
            (line.range(of: "oidc.a") ?? line.range(of: "oidc.longer-name")).map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        }
        let headerColumn = lines.first.flatMap { $0.range(of: "PROVIDERS") }.map {
            lines[0].distance(from: lines[0].startIndex, to: $0.lowerBound)
        }
        #expect(Set(providerColumn).count == 1 && providerColumn.first == headerColumn, "\(lines)")
        #expect(!lines.contains { $0.contains("\t") })
        // Without a terminal (a log, a pipe): the same header, tab-separated, so "yes" and "local" have a name (issue 38, item 15).
        let piped = try await authctl.run(["users", "list"]).stdout.split(separator: "\n").map(String.init)
        #expect(piped.count == 3 && piped.first == "  UID\tEMAIL\tPROVIDERS\tBACKEND\tSESSION", "\(piped)")
        #expect(piped.dropFirst().allSatisfy { $0.split(separator: "\t").count == 5 }, "\(piped)")
        let json = try await authctl.run(["users", "list", "--json"])
        #expect(json.json?["users"]?.arrayValue?.count == 2 && json.stdout.hasPrefix("{"), "--json keeps its one document: \(json.stdout)")
        try await authctl.run(["signout", "--all"]).expectSuccess()
        let status = try await authctl.run(["status", "--json"])
        #expect(status.status == 16 && status.json == ["signedIn": .bool(false), "otherSessions": .array([])], "\(status.stdout)")
    }

    @Test("TERM=dumb gets no colour on a terminal")
    func dumbTerminal() async throws {
        let provider = try FakeIdentityProvider()
        #expect(
            try await authctl.run(["providers", "add", "oidc.a", "--issuer", provider.issuer, "--client-id", provider.clientID]).status == 0
        )
        let coloured = try await authctl.run(
            ["login", "oidc.a", "--no-browser", "--timeout", "1"], environment: ["NO_COLOR": "", "TERM": "xterm"], terminals: .all)
        #expect(coloured.stderr.contains("\u{1B}["), "colours on an ordinary terminal: \(coloured.stderr)")
        let dumb = try await authctl.run(
            ["login", "oidc.a", "--no-browser", "--timeout", "1"], environment: ["NO_COLOR": "", "TERM": "dumb"], terminals: .all)
        #expect(!dumb.stderr.contains("\u{1B}["), "\(dumb.stderr)")
    }
}
