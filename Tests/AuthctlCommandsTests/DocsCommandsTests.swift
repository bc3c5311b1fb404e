import AuthCore
import Foundation
import Testing

/// Every authctl command line written in the docs exists (issue 15, item 13): its commands
/// are the binary's, and each option it names is an option of that command.
@Suite("the docs name only commands and options that exist")
struct DocsCommandsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `authctl …` in inline code and at the start of lines of fenced code blocks.
    static func commandLines(in markdown: String) -> [String] {
        var lines: [String] = []
        var fenced = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if fenced {
                // Shell lines, YAML `run:` lines and kubeconfig args all start the command with `authctl `.
                if let range = trimmed.range(of: #"(^|\$ |run: |- )authctl [^#]*"#, options: .regularExpression) {
                    lines.append(
                        String(trimmed[range]).replacingOccurrences(of: #"^(\$ |run: |- )"#, with: "", options: .regularExpression))
                }
            } else {
                var rest = Substring(line)
                while let span = rest.range(of: #"`authctl [^`]*`"#, options: .regularExpression) {
                    lines.append(String(rest[span].dropFirst().dropLast()))
                    rest = rest[span.upperBound...]
                }
            }
        }
        // One command per line: cut at shell operators, keep each part that runs authctl.
        return lines.flatMap { line in
            line.components(separatedBy: CharacterSet(charactersIn: "|;&")).compactMap { part -> String? in
                let command = part.trimmingCharacters(in: .whitespaces)
                guard command.hasPrefix("authctl ") else { return nil }
                return command.components(separatedBy: CharacterSet(charactersIn: "<>)")).first?.trimmingCharacters(in: .whitespaces)
            }
        }
    }

    @Test("each documented command and option exists in the binary")
    func documentedCommandsExist() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let tree = try #require(try await authctl.run(["--experimental-dump-help"]).json?["command"]?.objectValue)
        let global: Set<String> = ["--keystore", "--config", "--json", "--verbose", "-v", "--quiet", "-q", "--help", "-h"]
        func options(_ command: [String: JSONValue]) -> Set<String> {
            var names: Set<String> = []
            for argument in command["arguments"]?.arrayValue ?? [] {
                for name in argument.objectValue?["names"]?.arrayValue ?? [] {
                    guard let name = name.objectValue, let text = name["name"]?.stringValue else { continue }
                    names.insert((name["kind"] == .string("short") ? "-" : "--") + text)
                }
            }
            return names
        }
        let documents =
            try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 } + ["README.md"]
        var problems: [String] = []
        var checked = 0
        for document in documents {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            for line in Self.commandLines(in: text) {
                checked += 1
                let words = line.split(whereSeparator: { $0 == " " }).dropFirst().map(String.init)
                var command = tree
                var index = 0
                // Global options may come first (authctl --json status).
                while index < words.count, global.contains(words[index].split(separator: "=").first.map(String.init) ?? "") { index += 1 }
                while index < words.count,
                    let sub = command["subcommands"]?.arrayValue?.compactMap(\.objectValue).first(where: {
                        $0["commandName"] == .string(words[index])
                    })
                {
                    command = sub
                    index += 1
                }
                if command == tree, index < words.count, !words[index].hasPrefix("-"), !words[index].hasPrefix("<"),
                    words[index].uppercased() != words[index]
                {
                    problems.append("\(document): `\(line)`: no command '\(words[index])'")
                    continue
                }
                let known = options(command).union(global).union(["--version", "--generate-completion-script"])
                // What follows `--` is another program's (exec -- CMD …).
                for word in words[index...].prefix(while: { $0 != "--" }) where word.hasPrefix("-") && word != "-" {
                    let name = String(word.split(separator: "=").first ?? "")
                    if name.hasPrefix("--") || (name.count == 2 && name != "--") {
                        if !known.contains(name) { problems.append("\(document): `\(line)`: no option \(name)") }
                    }
                }
            }
        }
        #expect(checked > 50, "the docs hold command lines: \(checked)")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
