import AuthCore

/// Progress on stderr; colours only on a terminal and never with NO_COLOR (docs/getting-started.md).
struct StderrTerminal: Terminal {
    let verbose: Bool
    let quiet: Bool
    let isInteractive: Bool
    let useColor: Bool
    let stdin: any InputChannel
    let stderr: any OutputChannel

    init(verbose: Bool, quiet: Bool, colors: Bool, stdin: any InputChannel, stderr: any OutputChannel) {
        self.verbose = verbose
        self.quiet = quiet
        self.isInteractive = stdin.isTerminal && stderr.isTerminal
        self.useColor = colors && stderr.isTerminal
        self.stdin = stdin
        self.stderr = stderr
    }

    func progress(_ line: String) { if !quiet { write(styled(line, "2")) } }
    func notice(_ line: String) { write(styled(line, "1")) }
    func debug(_ line: String) { if verbose { write(styled(line, "2")) } }

    /// The longest line a person may paste (a redirect URL or a posted form body).
    static let lineLimit = 64 * 1024

    /// What `--manual` shows before it reads the pasted address.
    static let pastePrompt =
        "Then paste the address the browser ended on (its page may fail to load: that is expected), the form body it posted, or the last line 'authctl bootstrap' printed, and press Enter:"

    /// No (false) unless a person answers yes; Ctrl-C ends the wait (the task is cancelled,
    /// which the caller checks).
    func confirm(_ question: String) -> Bool {
        guard isInteractive else { return false }
        stderr.print(Sanitize.visible("\(question) [y/N] "))
        guard let answer = try? stdin.readLine(limit: Self.lineLimit) else { return false }
        return ["y", "yes"].contains(answer.trimming(.whitespaces).lowercased())
    }

    /// nil at the end of input, on Ctrl-C (the task is cancelled) and for a line over 64 KiB.
    func readInput(prompt: String) async -> String? {
        write(styled(prompt, "1"))
        do {
            return try await stdin.readLineOffPool(limit: Self.lineLimit)
        } catch is InputTooLarge {
            notice("The pasted line is longer than 64 KiB, which no redirect URL is.")
            return nil
        } catch {
            return nil
        }
    }

    /// `text` visible-safe (what a provider sent, such as a device code, is in it), then in
    /// the colour authctl chose.
    func styled(_ text: String, _ code: String) -> String {
        let shown = Sanitize.visible(text, keepingLines: true)
        return useColor ? "\u{1B}[\(code)m\(shown)\u{1B}[0m" : shown
    }

    func write(_ line: String) {
        stderr.print(line + "\n")
    }
}
