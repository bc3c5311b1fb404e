import AuthCore
import Foundation
import Testing

/// No example puts a token on another program's command line (issue 22, item 12): every
/// local user can read a process's arguments in `/proc/PID/cmdline`. A token goes to another
/// program on a pipe (`authctl token --format header | curl -H @-`), in a file, or in its
/// environment (`authctl exec`), never in an argument.
@Suite("no example puts a token on a command line")
struct TokenOnCommandLineTests {
    static let root = DocsCommandsTests.root

    /// Commands that run inside the shell (no new process, no command line to read).
    static let builtins: Set<String> = [
        "eval", "echo", "printf", "export", "local", "readonly", "declare", "test", "[", "set", ":", "read",
    ]
    /// Shells whose `-c` script is itself shell, scanned in turn.
    static let shells: Set<String> = ["sh", "bash", "dash", "zsh", "ksh"]

    /// The unsafe uses of a token in one line of shell: a `$(…)` or `` `…` `` substitution of
    /// `authctl token` (or of the token file), or `$AUTHCTL_TOKEN`, expanded into an argument
    /// of a program. An assignment, a builtin and a pipe are safe.
    static func exposures(in line: String) -> [String] {
        var found: [String] = []
        for command in simpleCommands(in: line) {
            var words = command
            while let first = words.first, isAssignment(first) { words.removeFirst() }
            guard let name = words.first.map(unquoted) else { continue }
            let arguments = Array(words.dropFirst())
            if builtins.contains(name) { continue }
            if shells.contains(String(name.split(separator: "/").last ?? "")), let flag = arguments.firstIndex(of: "-c"),
                flag + 1 < arguments.count
            {
                // The script runs in a new shell, which expands it: scan it as shell.
                found += exposures(in: unquoted(arguments[flag + 1]))
                continue
            }
            if name == "authctl", arguments.first == "exec", let end = arguments.firstIndex(of: "--") {
                // What follows `--` is the command exec runs.
                found += exposures(in: arguments[(end + 1)...].joined(separator: " "))
                continue
            }
            for word in arguments where exposesToken(word) { found.append("\(name) … \(word)") }
        }
        return found
    }

    /// A `NAME=value` word before the command.
    static func isAssignment(_ word: String) -> Bool {
        guard let equals = word.firstIndex(of: "=") else { return false }
        let name = word[..<equals]
        return !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !(name.first?.isNumber ?? true)
    }

    /// True when the word, outside single quotes, expands a token: `$(… authctl token …)`,
    /// `` `authctl token` ``, `$(cat "$AUTHCTL_TOKEN_FILE")`, `$AUTHCTL_TOKEN`, `${AUTHCTL_TOKEN}`.
    static func exposesToken(_ word: String) -> Bool {
        let expanded = outsideSingleQuotes(word)
        if expanded.range(of: #"\$\{?AUTHCTL_TOKEN\}?(?![A-Za-z0-9_])"#, options: .regularExpression) != nil { return true }
        for pattern in [#"\$\([^)]*\)"#, #"`[^`]*`"#] {
            var rest = Substring(expanded)
            while let range = rest.range(of: pattern, options: .regularExpression) {
                let inside = rest[range]
                if inside.range(of: #"authctl\s+(--?[a-z-]+\s+)*token\b"#, options: .regularExpression) != nil
                    || inside.contains("AUTHCTL_TOKEN")
                {
                    return true
                }
                rest = rest[range.upperBound...]
            }
        }
        return false
    }

    /// The text of a word that the shell expands: what single quotes hold is dropped.
    static func outsideSingleQuotes(_ word: String) -> String {
        var result = ""
        var single = false, double = false
        for character in word {
            if character == "'" && !double {
                single.toggle()
                continue
            }
            if character == "\"" && !single { double.toggle() }
            if !single { result.append(character) }
        }
        return result
    }

    /// A word without its quotes (`'a b'` → `a b`).
    static func unquoted(_ word: String) -> String {
        var result = ""
        var single = false, double = false
        for character in word {
            if character == "'" && !double {
                single.toggle()
            } else if character == "\"" && !single {
                double.toggle()
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The simple commands of a line (cut at `|`, `;`, `&` outside quotes and substitutions),
    /// each as its words (quotes kept); a `#` comment ends the line.
    static func simpleCommands(in line: String) -> [[String]] {
        var commands: [[String]] = []
        var words: [String] = []
        var word = ""
        var single = false, double = false, backtick = false
        var depth = 0
        var previous: Character = " "
        func endWord() {
            if !word.isEmpty { words.append(word) }
            word = ""
        }
        func endCommand() {
            endWord()
            if !words.isEmpty { commands.append(words) }
            words = []
        }
        for character in line {
            defer { previous = character }
            let quoted = single || double || backtick || depth > 0
            if !quoted && character == "#" && previous.isWhitespace { break }
            if !quoted && (character == "|" || character == ";" || character == "&") {
                endCommand()
                continue
            }
            if !quoted && character.isWhitespace {
                endWord()
                continue
            }
            word.append(character)
            if character == "'" && !double && !backtick && depth == 0 { single.toggle() }
            if single { continue }
            if character == "\"" { double.toggle() }
            if character == "`" { backtick.toggle() }
            if character == "(" && previous == "$" { depth += 1 }
            if character == ")" && depth > 0 { depth -= 1 }
        }
        endCommand()
        return commands
    }

    /// The lines of code in markdown: fenced blocks (prose that quotes a wrong form to forbid
    /// it is not an example), continuation lines joined.
    static func codeLines(inMarkdown text: String) -> [String] {
        var lines: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if fenced { lines.append(String(line)) }
        }
        return joinContinuations(lines)
    }

    static func joinContinuations(_ lines: [String]) -> [String] {
        var joined: [String] = []
        var pending = ""
        for line in lines {
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
            } else {
                joined.append(pending + line)
                pending = ""
            }
        }
        if !pending.isEmpty { joined.append(pending) }
        return joined
    }

    /// A help text's `Example: COMMAND` line as the command alone.
    static func withoutExamplePrefix(_ line: String) -> String {
        line.hasPrefix("Example: ") ? String(line.dropFirst("Example: ".count)) : line
    }

    /// The man page as text: roff escapes undone; request lines (`.Xx`) dropped.
    static func manPageLines(_ roff: String) -> [String] {
        roff.split(separator: "\n").filter { !$0.hasPrefix(".") }.map {
            $0.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\(aq", with: "'").replacingOccurrences(
                of: "\\e", with: "\\"
            )
            .replacingOccurrences(of: "\\&", with: "")
        }
    }

    @Test(
        "the scanner flags a token substituted or expanded into a program's argument",
        arguments: [
            #"curl -H "$(authctl token --format header)" https://api.example.com/"#,
            #"curl -H "Authorization: Bearer $(authctl token)" https://x"#,
            "curl -H \"Authorization: Bearer `authctl token`\" https://x",
            #"kubectl --token=$(authctl --quiet token) get pods"#,
            #"authctl exec -- sh -c 'curl -H "Authorization: Bearer $AUTHCTL_TOKEN" https://api.example.com/'"#,
            #"curl -H "Authorization: Bearer ${AUTHCTL_TOKEN}" https://x"#,
            #"curl -H "Authorization: Bearer $(cat "$AUTHCTL_TOKEN_FILE")" https://x"#,
            #"authctl token --format header | curl -H "X: $AUTHCTL_TOKEN" https://x"#,
            #"bash -c "git push https://x:$(authctl token)@host/repo""#,
        ])
    func flagsUnsafe(line: String) {
        #expect(!Self.exposures(in: line).isEmpty, "\(line)")
    }

    @Test(
        "the scanner leaves safe forms alone: a pipe, an assignment, eval, a builtin, a single-quoted script's own expansion by a builtin",
        arguments: [
            #"authctl token --format header | curl --fail -H @- https://api.example.com/"#,
            #"authctl token --format header | curl --config - https://x"#,
            #"TOKEN=$(authctl token)"#,
            #"export AUTHCTL_TOKEN="$(authctl token)""#,
            #"eval "$(authctl token --format env)""#,
            #"authctl exec -- ./deploy.sh"#,
            #"authctl exec -- sh -c 'printf "Authorization: Bearer %s\n" "$AUTHCTL_TOKEN" | curl -H @- https://x'"#,
            #"authctl exec -- sh -c 'curl -H @"$AUTHCTL_TOKEN_HEADER_FILE" https://x'"#,
            #"echo '$(authctl token)' # a quoted text, not run"#,
            #"authctl token   # the token on stdout"#,
            #"curl -H "Authorization: Bearer $TOKEN_FROM_VAULT" https://x # not authctl's"#,
        ])
    func passesSafe(line: String) {
        #expect(Self.exposures(in: line).isEmpty, "\(line): \(Self.exposures(in: line))")
    }

    @Test("README.md, docs/*.md and the man page show no token on a command line")
    func documents() throws {
        var problems: [String] = []
        var scanned = 0
        let docs = Self.root.appendingPathComponent("docs")
        let documents = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        for document in documents + ["README.md"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            for line in Self.codeLines(inMarkdown: text) {
                scanned += 1
                for exposure in Self.exposures(in: line) { problems.append("\(document): \(line)  [\(exposure)]") }
            }
        }
        let roff = try String(contentsOf: docs.appendingPathComponent("authctl.1"), encoding: .utf8)
        for line in Self.manPageLines(roff) {
            scanned += 1
            for exposure in Self.exposures(in: Self.withoutExamplePrefix(line)) {
                problems.append("docs/authctl.1: \(line)  [\(exposure)]")
            }
        }
        #expect(scanned > 300, "the documents hold code: \(scanned) lines")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("no command's --help shows a token on a command line")
    func helpTexts() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let dump = try #require(try await authctl.run(["--experimental-dump-help"]).json)
        var texts: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .string(let text): texts.append(text)
            case .array(let values): values.forEach(collect)
            case .object(let members): members.values.forEach(collect)
            default: break
            }
        }
        collect(.object(dump))
        var problems: [String] = []
        for line in texts.flatMap({ $0.split(separator: "\n").map(String.init) }) {
            for exposure in Self.exposures(in: Self.withoutExamplePrefix(line)) { problems.append("\(line)  [\(exposure)]") }
        }
        #expect(texts.count > 100, "the help texts were read: \(texts.count)")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
