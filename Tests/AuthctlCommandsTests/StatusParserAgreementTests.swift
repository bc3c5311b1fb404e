import ArgumentParser
import Testing

@testable import AuthctlCommands

/// `authctl status`'s hand parser (`StatusInvocation.parseFast`) against ArgumentParser on
/// generated argument lists (`ParserAgreement`).
@Suite("The status fast parser agrees with ArgumentParser on generated arguments")
struct StatusParserAgreementTests {
    static let values = ["", " ", "a\nb", "-", "--", "-1", "/tmp/k.json", "k.json", "ada@example.com", "uid-1", "x=y", "--json", "-v"]
    static let valued = ["--keystore", "--config", "--user"]
    static let flags = ["--check", "--json", "-v", "--verbose", "-q", "--quiet"]
    static let others = ["--", "-", "-vq", "--check=1", "--json=", "--unknown", "extra", "", "--keystore=", "--help", "-h", "--user="]

    static func generate(_ random: inout ParserAgreement.SplitMix) -> [String] {
        var arguments: [String] = []
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let name = valued.randomElement(using: &random) ?? "--keystore"
                let value = values.randomElement(using: &random) ?? ""
                if Bool.random(using: &random) { arguments.append("\(name)=\(value)") } else { arguments += [name, value] }
            case 4..<8: arguments.append(flags.randomElement(using: &random) ?? "--check")
            case 8: arguments.append(valued.randomElement(using: &random) ?? "--user")
            default: arguments.append(others.randomElement(using: &random) ?? "--")
            }
        }
        return arguments
    }

    @Test("1,500 generated argument lists: the hand parser's result is ArgumentParser's, or nil where ArgumentParser refuses")
    func generated() throws {
        let (accepted, refused) = ParserAgreement.check(
            seed: 0x5EED_0038, count: 1500, generate: Self.generate, fast: StatusInvocation.parseFast,
            full: { try Status.parse($0).invocation }, message: Status.message(for:))
        #expect(accepted > 150 && refused > 150, "accepted \(accepted), refused \(refused)")
    }

    @Test("the forms of prompts and scripts are parsed by hand")
    func commonForms() throws {
        for arguments in [[], ["--json"], ["--check"], ["--keystore", "/tmp/k.json", "--json"], ["--user", "ada@example.com"]] {
            let fast = try #require(StatusInvocation.parseFast(arguments), "\(arguments)")
            #expect(fast == (try Status.parse(arguments).invocation))
        }
    }
}
