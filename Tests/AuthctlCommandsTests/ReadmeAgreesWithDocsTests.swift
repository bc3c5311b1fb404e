import Foundation
import Testing

/// README's short examples say what the reference pages say (issue 38, item 4): a command line
/// in README that a page of docs/ also gives for the same command and provider is the page's
/// line, with every option the page writes (Azure DevOps needs `--scope …/.default`).
@Suite("README's examples agree with docs/")
struct ReadmeAgreesWithDocsTests {
    static let root = DocsCommandsTests.root

    /// The command and its first argument (`git-credential microsoft.com`): what the line is for.
    static func subject(_ line: String) -> String {
        line.split(separator: " ").dropFirst().prefix(2).joined(separator: " ")
    }

    static func options(_ line: String) -> Set<String> {
        Set(line.split(separator: " ").filter { $0.hasPrefix("--") }.map { String($0.split(separator: "=")[0]) })
    }

    @Test("a README line for git-credential carries every option docs/git.md gives it")
    func readmeLinesCarryTheDocsOptions() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let docsFolder = Self.root.appendingPathComponent("docs")
        var documented: [String: [String]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: docsFolder.path) where name.hasSuffix(".md") {
            let text = try String(contentsOf: docsFolder.appendingPathComponent(name), encoding: .utf8)
            for line in Self.commandLines(in: text) { documented[Self.subject(line), default: []].append(line) }
        }
        var problems: [String] = []
        let readmeLines = Self.commandLines(in: readme).filter { $0.hasPrefix("authctl git-credential ") }
        #expect(!readmeLines.isEmpty, "README shows a git-credential line")
        for line in readmeLines {
            guard let pages = documented[Self.subject(line)] else { continue }
            // The README line must be as complete as one of the docs' lines for the same subject.
            if !pages.contains(where: { Self.options($0).isSubset(of: Self.options(line)) }) {
                problems.append("README: `\(line)` lacks options docs give it: `\(pages[0])`")
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Command lines as DocsCommandsTests reads them, plus those quoted inside a git helper ("!authctl …").
    static func commandLines(in markdown: String) -> [String] {
        var lines = DocsCommandsTests.commandLines(in: markdown)
        var rest = Substring(markdown)
        while let span = rest.range(of: #"!authctl [^"`\n]*"#, options: .regularExpression) {
            lines.append(String(rest[span].dropFirst()).trimmingCharacters(in: .whitespaces))
            rest = rest[span.upperBound...]
        }
        return lines
    }
}
