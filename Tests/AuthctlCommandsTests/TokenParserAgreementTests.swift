import ArgumentParser
import Testing

@testable import AuthctlCommands

/// `authctl token`'s hand parser against ArgumentParser on generated argument lists: every
/// option, in any order, in both `--name value` and `--name=value` forms, with empty, blank,
/// multi-line, dash-led and out-of-range values, unknown options, `--` and the provider.
/// Whatever the hand parser accepts, ArgumentParser must accept with the same values;
/// whatever ArgumentParser refuses, the hand parser must hand over (nil).
@Suite("The token fast parser agrees with ArgumentParser on generated arguments")
struct TokenParserAgreementTests {
    typealias SplitMix = ParserAgreement.SplitMix

    static let values = [
        "", " ", "\t", "a b", "a\nb", "-", "--", "-1", "0", "60", "86400", "86401", "9223372036854775807", "99999999999999999999",
        "1.5", "raw", "json", "header", "env", "kubectl-exec", "yaml", "Mail.Read", "https://graph.microsoft.com/.default",
        "/tmp/k.json", "x=y", "--json", "-v", "oidc.work",
    ]
    static let valued = ["--keystore", "--config", "--min-ttl", "--format", "--scope"]
    static let flags = ["--json", "-v", "--verbose", "-q", "--quiet", "--id-token", "--access-token", "--force-refresh"]
    static let others = [
        "--", "-", "-vq", "-qv", "--unknown", "--json=", "--json=yes", "--id-token=1", "--access-token=", "-x", "microsoft", "oidc.work",
        "apple.com",
        "", " ", "--keystore=", "--scope=", "--min-ttl=", "--format=", "--no-such=1",
    ]

    static func generate(_ random: inout SplitMix) -> [String] {
        var arguments: [String] = []
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let name = valued.randomElement(using: &random) ?? "--scope"
                let value = values.randomElement(using: &random) ?? ""
                if Bool.random(using: &random) {
                    arguments.append("\(name)=\(value)")
                } else {
                    arguments += [name, value]
                }
            case 4..<7: arguments.append(flags.randomElement(using: &random) ?? "--json")
            case 7: arguments.append(valued.randomElement(using: &random) ?? "--scope")  // a value missing at the end, or taken
            default: arguments.append(others.randomElement(using: &random) ?? "--")
            }
        }
        return arguments
    }

    @Test("1,500 generated argument lists: the hand parser's result is ArgumentParser's, or nil where ArgumentParser refuses")
    func generated() throws {
        let (accepted, refused) = ParserAgreement.check(
            seed: 0x5EED_0012, count: 1500, generate: Self.generate, fast: TokenInvocation.parseFast,
            full: { try Token.parse($0).request }, message: Token.message(for:))
        #expect(accepted > 150 && refused > 150, "accepted \(accepted), refused \(refused)")
    }
}
