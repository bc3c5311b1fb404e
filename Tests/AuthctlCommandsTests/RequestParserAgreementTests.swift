import ArgumentParser
import CachedTokenCore
import Testing

@testable import AuthctlCommands

/// `authctl request`'s hand parser (`RequestInvocation.parseFast`) against ArgumentParser on
/// generated argument lists, as TokenParserAgreementTests holds `token`'s: whatever the hand
/// parser accepts, ArgumentParser accepts with the same values; whatever ArgumentParser
/// refuses, the hand parser hands over (nil).
@Suite("The request fast parser agrees with ArgumentParser on generated arguments")
struct RequestParserAgreementTests {
    typealias SplitMix = ParserAgreement.SplitMix

    static let values = [
        "", " ", "a b", "a\nb", "-", "--", "-1", "0", "1", "300", "86400", "86401", "007", "+5", "1.5", "POST", "get",
        "Content-Type: application/json", "Accept:text/plain", "X-A: b: c", ": v", "NoColon", "Na me: v", "@body.json", "{\"a\": 1}",
        "https://api.example.com/mcp", "/tmp/k.json", "x=y", "--json", "-v", "python3 browser.py", "ada@example.com", "uid-1",
    ]
    static let valued = [
        "-X", "--method", "-H", "--header", "--data", "--browser-command", "--timeout", "--keystore", "--config", "--user",
    ]
    static let flags = ["-i", "--include", "--json", "-v", "--verbose", "-q", "--quiet"]
    static let others = [
        "--", "-", "-iv", "-vq", "--unknown", "--json=", "--include=yes", "-XPOST", "-H=a:b", "-x", "https://api.example.com/mcp",
        "http://127.0.0.1:8080/x", "", " ", "--data=", "--method=", "--timeout=", "--header=", "--help", "-h",
    ]

    static func generate(_ random: inout SplitMix) -> [String] {
        var arguments: [String] = []
        // Mostly with a URL, somewhere.
        let urlAt = Int.random(in: -1...5, using: &random)
        for position in 0..<Int.random(in: 0...6, using: &random) {
            if position == urlAt { arguments.append("https://api.example.com/mcp") }
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let name = valued.randomElement(using: &random) ?? "-H"
                let value = values.randomElement(using: &random) ?? ""
                if name.hasPrefix("--"), Bool.random(using: &random) {
                    arguments.append("\(name)=\(value)")
                } else {
                    arguments += [name, value]
                }
            case 5..<8: arguments.append(flags.randomElement(using: &random) ?? "-i")
            case 8: arguments.append(valued.randomElement(using: &random) ?? "-H")  // a value missing at the end, or taken
            default: arguments.append(others.randomElement(using: &random) ?? "--")
            }
        }
        if urlAt == -1 { arguments.insert("https://api.example.com/items", at: 0) }
        return arguments
    }

    @Test("2,000 generated argument lists: the hand parser's result is ArgumentParser's, or nil where ArgumentParser refuses")
    func generated() throws {
        let (accepted, refused) = ParserAgreement.check(
            seed: 0x5EED_0037, count: 2000, generate: Self.generate, fast: RequestInvocation.parseFast,
            full: { try RequestCommand.parse($0).invocation }, message: RequestCommand.message(for:))
        #expect(accepted > 120 && refused > 200, "accepted \(accepted), refused \(refused)")
    }

    /// The request program's parser (`CachedRequest.parse`, in the cached-token core) read as
    /// the invocation it stands for: no `--include`, no browser command, the default timeout.
    static func requestProgram(_ arguments: [String]) -> RequestInvocation? {
        guard let parsed = CachedRequest.parse(["request"] + arguments) else { return nil }
        return RequestInvocation(
            url: parsed.url, method: parsed.method, headers: parsed.headers, data: parsed.data, include: false, browserCommand: nil,
            timeout: 300, settings: Wiring.Settings(keystore: parsed.keystore, config: parsed.config))
    }

    @Test("the same 2,000 lists: what the request program's parser takes, ArgumentParser reads with the same values")
    func requestProgramParser() throws {
        let (accepted, refused) = ParserAgreement.check(
            seed: 0x5EED_0037, count: 2000, generate: Self.generate, fast: Self.requestProgram,
            full: { try RequestCommand.parse($0).invocation }, message: RequestCommand.message(for:))
        #expect(accepted > 40 && refused > 200, "accepted \(accepted), refused \(refused)")
        for arguments in [
            ["https://api.example.com/mcp/items"],
            ["-X", "POST", "https://api.example.com/mcp", "-H", "Content-Type: application/json", "--data", "@body.json"],
            [
                "--method=put", "--header=X-A: 1", "-H", "X-A: 2", "--data={}", "--keystore=/k.json", "--config", "/c.json",
                "https://a.example/x",
            ],
        ] {
            let parsed = try #require(Self.requestProgram(arguments), "\(arguments)")
            #expect(parsed == (try RequestCommand.parse(arguments).invocation))
        }
        for arguments in [["https://a.example", "--include"], ["https://a.example", "--data", "-"], ["https://a.example", "--json"]] {
            #expect(Self.requestProgram(arguments) == nil, "\(arguments)")
        }
    }

    @Test("the forms of the docs and of agents' loops are parsed by hand")
    func commonForms() throws {
        for arguments in [
            ["https://api.example.com/mcp/items"],
            ["-X", "POST", "https://api.example.com/mcp", "-H", "Content-Type: application/json", "--data", "@body.json"],
            ["-X", "PUT", "https://api.example.com/items/1", "--data", "-"],
            ["https://api.example.com/mcp", "-H", "Accept: application/json, text/event-stream", "--data", "{}", "--include", "--json"],
            ["--keystore", "/tmp/k.json", "--user", "ada@example.com", "https://api.example.com/mcp", "--timeout", "60"],
        ] {
            let fast = try #require(RequestInvocation.parseFast(arguments), "\(arguments)")
            #expect(fast == (try RequestCommand.parse(arguments).invocation))
        }
    }
}
