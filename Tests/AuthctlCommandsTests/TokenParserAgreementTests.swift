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
    /// A small seeded generator (SplitMix64), so a failure is reproducible from its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

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
        var random = SplitMix(state: 0x5EED_0012)
        var accepted = 0, refused = 0
        for _ in 0..<1500 {
            let arguments = Self.generate(&random)
            let fast = TokenInvocation.parseFast(arguments)
            let full = Result { try Token.parse(arguments).request }
            switch (fast, full) {
            case (let fast?, .success(let request)):
                #expect(fast == request, "\(arguments.debugDescription)")
                accepted += 1
            case (.some, .failure(let error)):
                Issue.record("the fast parser accepts \(arguments.debugDescription); ArgumentParser refuses: \(Token.message(for: error))")
            case (nil, .failure): refused += 1
            case (nil, .success): break  // handed over: ArgumentParser parses it
            }
        }
        // The generator reaches both sides (a generator that only makes garbage proves nothing).
        #expect(accepted > 150 && refused > 150, "accepted \(accepted), refused \(refused)")
    }
}
