import AuthCore
import Foundation
import Testing

/// Help, man page and completion name each command once, and examples read as examples
/// (issue 38, item 6).
@Suite("help lists each command once; examples stay on their lines")
struct HelpListsOnceTests {
    static let root = DocsCommandsTests.root

    @Test("authctl --help lists each subcommand once")
    func helpListsEachCommandOnce() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let help = try await authctl.run(["--help"])
        let section = help.stdout.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        let names = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
        #expect(names.count > 20, "\(help.stdout)")
        let repeated = Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "listed more than once: \(repeated)")
    }

    @Test("the man page describes each command once")
    func manPageListsEachCommandOnce() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/authctl.1"), encoding: .utf8)
        let entries = page.split(separator: "\n").filter { $0.hasPrefix(".It Nm Cm ") }.map(String.init)
        let repeated = Dictionary(grouping: entries, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(entries.count > 20)
        #expect(repeated.isEmpty, "described more than once: \(repeated)")
    }

    @Test("the bash completion offers each command once")
    func bashCompletionOffersEachCommandOnce() throws {
        let script = try String(contentsOf: Self.root.appendingPathComponent("completions/authctl.bash"), encoding: .utf8)
        // The top level's candidate list: the first `compgen -W` line that names `login`.
        let candidates = try #require(
            script.split(separator: "\n").first { $0.contains("login") && $0.contains("doctor") && $0.contains("kubeconfig") })
        let words = candidates.split(whereSeparator: { " '\"()|".contains($0) }).map(String.init).filter {
            $0.allSatisfy { $0.isLowercase || $0 == "-" }
        }
        let repeated = Dictionary(grouping: words, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "offered more than once: \(repeated) in \(candidates)")
    }

    @Test("in the man page each example is a line of its own, in a literal block of at most 61 columns")
    func manPageExamplesOnTheirOwnLines() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/authctl.1"), encoding: .utf8)
        var literal = false
        var problems: [String] = []
        for line in page.split(separator: "\n").map(String.init) {
            if line.hasPrefix(".Bd -literal") { literal = true } else if line == ".Ed" { literal = false }
            if !literal, !line.hasPrefix("."), line.range(of: #"\S\s+authctl [a-z]"#, options: .regularExpression) != nil,
                line.range(of: #"authctl [a-z-]+.*  +#"#, options: .regularExpression) != nil
            {
                problems.append("flowed into a paragraph: \(line)")
            }
            // An example line wider than this wraps at 80 columns once man indents a command's block (19 columns).
            if literal, line.count > 61 { problems.append("\(line.count) columns: \(line)") }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("example lines in each command's help fit in 80 columns")
    func helpExamplesFit() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let tree = try #require(try await authctl.run(["--experimental-dump-help"]).json?["command"]?.objectValue)
        var problems: [String] = []
        func walk(_ command: [String: JSONValue], _ path: [String]) {
            if let discussion = command["discussion"]?.stringValue,
                let examples = discussion.components(separatedBy: "Examples:").dropFirst().first
            {
                for line in examples.split(separator: "\n") where line.count > 80 {
                    problems.append("authctl \(path.joined(separator: " ")): \(line.count) columns: \(line)")
                }
            }
            for sub in command["subcommands"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                walk(sub, path + [sub["commandName"]?.stringValue ?? "?"])
            }
        }
        walk(tree, [])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
