import ArgumentParser
import AuthCore

/// Completion candidates read from the user's own files when the shell asks (it runs
/// `authctl ---completion …`): provider ids from the configuration, uids from the keystore,
/// each file found as the command line being completed would find it (`--config`,
/// `--keystore`, the environment). A file that is missing, unsafe or corrupt completes
/// nothing: completion never prints an error.
enum Completions {
    /// The I/O of the invocation being parsed (its environment finds the files): ArgumentParser
    /// calls the completion functions while it parses, with no way to hand them anything.
    @TaskLocal static var io: AuthctlIO?

    static let providerIDs = CompletionKind.custom { words, _, prefix in
        guard let wiring = wiring(for: words) else { return [] }
        let configured = (try? wiring.configStore().load().providers.keys.sorted()) ?? []
        return configured.filter { $0.hasPrefix(prefix) }
    }

    static let uids = CompletionKind.custom { words, _, prefix in
        guard let wiring = wiring(for: words) else { return [] }
        let users = (try? wiring.keystore().readProfiles().users) ?? []
        return users.map(\.uid).filter { $0.hasPrefix(prefix) }
    }

    static func wiring(for words: [String]) -> Wiring? {
        io.map { Wiring(settings: settings(from: words), io: $0) }
    }

    /// `--keystore` and `--config` on the command line being completed (`--x V` or `--x=V`).
    static func settings(from words: [String]) -> Wiring.Settings {
        var settings = Wiring.Settings()
        for (index, word) in words.enumerated() {
            for (option, path) in [("--keystore", \Wiring.Settings.keystore), ("--config", \Wiring.Settings.config)] {
                if word == option, index + 1 < words.count {
                    settings[keyPath: path] = words[index + 1]
                } else if word.hasPrefix(option + "=") {
                    settings[keyPath: path] = String(word.dropFirst(option.count + 1))
                }
            }
        }
        return settings
    }

    /// ArgumentParser's bash script with authctl's candidates offered as they are. Its script
    /// hands them to `compgen -W`, which expands `$(…)`, backquotes and variables in them: a
    /// uid or provider id planted in a file would run a command at TAB. Here they are read
    /// line by line and kept when they start with the word being completed; nothing else of
    /// the script changes. Any other text (help, the zsh and fish scripts, where the
    /// candidates are never expanded) is returned as it is.
    static func offeringCandidatesAsTheyAre(_ text: String) -> String {
        let call = "__authctl_add_completions -W \"$(__authctl_custom_complete "
        guard text.hasPrefix("#!/bin/bash"), text.contains(call) else { return text }
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("__authctl_custom_complete() {") { lines += bashAddCustomCompletions }
            let indent = line.prefix { $0 == " " }
            let body = line.dropFirst(indent.count)
            if body.hasPrefix(call), body.hasSuffix(")\"") {
                lines.append(indent + "__authctl_add_custom_completions " + body.dropFirst(call.count).dropLast(2))
            } else {
                lines.append(String(line))
            }
        }
        return lines.joined(separator: "\n")
    }

    private static let bashAddCustomCompletions = [
        "# authctl: the candidates authctl prints, offered as they are (never through compgen -W,",
        "# which would expand $(...), backquotes and variables in them).",
        "__authctl_add_custom_completions() {",
        "    local completion",
        "    while IFS='' read -r completion; do",
        "        [[ \"${completion}\" == \"${cur}\"* ]] && COMPREPLY+=(\"${completion}\")",
        "    done < <(__authctl_custom_complete \"${@}\")",
        "}",
        "",
    ]
}
