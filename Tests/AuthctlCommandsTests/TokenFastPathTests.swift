import ArgumentParser
import Testing

@testable import AuthctlCommands

/// `authctl token`'s hand parser (the hot path) must agree with ArgumentParser on every
/// form it accepts, and hand everything else over.
@Suite("The token command's fast argument parser")
struct TokenFastPathTests {
    @Test(
        "it parses what ArgumentParser parses, to the same values",
        arguments: [
            [], ["oidc.work"], ["microsoft", "--format", "json"], ["--format=kubectl-exec"], ["--id-token", "--min-ttl", "300"],
            ["--min-ttl=0", "--force-refresh", "apple"], ["--scope", "Mail.Read", "--scope=https://graph.microsoft.com/.default"],
            ["--keystore", "/tmp/k.json", "--config=/tmp/c.json", "--json", "-v", "-q"], ["--verbose", "--quiet", "--format", "env"],
            ["oidc.x", "--format", "header"], ["--format", "kubectl-exec", "--access-token"], ["--access-token", "oidc.k8s"],
            ["--user", "ada@example.com"], ["--user=uid_0123456789abcdefghij", "oidc.x"],
        ])
    func agrees(arguments: [String]) throws {
        let fast = try #require(TokenInvocation.parseFast(arguments), "\(arguments)")
        #expect(fast == (try Token.parse(arguments)).request, "\(arguments)")
    }

    @Test(
        "it leaves help, unknown options, bad values and unusual forms to ArgumentParser",
        arguments: [
            ["--help"], ["-h"], ["--format", "yaml"], ["--min-ttl", "-1"], ["--min-ttl", "soon"], ["--min-ttl"], ["a", "b"],
            ["--unknown"], ["-vq"], ["--json=yes"], ["--scope", "two scopes"], ["--", "x"], ["--generate-completion-script", "bash"],
            ["--id-token", "--access-token"], ["--access-token=yes"], ["--user", "not a user"], ["--user"],
        ])
    func handsOver(arguments: [String]) {
        #expect(TokenInvocation.parseFast(arguments) == nil, "\(arguments)")
    }
}
