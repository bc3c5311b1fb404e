import AuthCore

/// The common forms of a command's arguments read by hand, without ArgumentParser, whose first
/// parse costs a command more than all the rest of its work (issue 37, bench/README.md):
/// `request`'s and `status`'s (`token`'s has its own, `TokenForm`, shared with the token front).
/// The global options go into `settings`; every other argument goes to the command's `own`,
/// which takes it (and its value) or refuses it. Nil for anything ArgumentParser must read —
/// help, an unknown option, a repeated one, a flag given a value, a value ArgumentParser would
/// refuse or read as an option (one that starts with a dash), `--` — so that it gives its usual
/// messages. Each command's agreement test holds its forms to ArgumentParser's.
struct HandParser {
    private let arguments: [String]
    private var index = 0
    /// The option's name, and its value when written `--name=value`.
    private(set) var name = ""
    private var inline: String?
    private(set) var settings = Wiring.Settings()

    private init(_ arguments: [String]) { self.arguments = arguments }

    static func parse(_ arguments: [String], own: (inout HandParser) -> Bool) -> Wiring.Settings? {
        var parser = HandParser(arguments)
        while parser.index < arguments.count {
            let argument = arguments[parser.index]
            parser.name = argument
            parser.inline = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                parser.name = String(argument[..<equals])
                parser.inline = String(argument[argument.index(after: equals)...])
            }
            guard parser.global() ?? own(&parser) else { return nil }
            parser.index += 1
        }
        return parser.settings
    }

    /// The global options (`GlobalOptions`), with its rules; nil for any other argument.
    private mutating func global() -> Bool? {
        switch name {
        case "--keystore": return once(\.keystore, Self.isPath)
        case "--config": return once(\.config, Self.isPath)
        case "--user": return once(\.user, IdentityRule.isUserSelector)
        case "--json": return flag(\.json)
        case "-v", "--verbose": return flag(\.verbose)
        case "-q", "--quiet": return flag(\.quiet)
        default: return nil
        }
    }

    /// A global option's value, once (`once`, into `settings`).
    private mutating func once(_ setting: WritableKeyPath<Wiring.Settings, String?>, _ accepts: (String) -> Bool) -> Bool {
        var value = settings[keyPath: setting]
        defer { settings[keyPath: setting] = value }
        return once(&value, accepts)
    }

    /// A global flag, once (`flag`, into `settings`).
    private mutating func flag(_ setting: WritableKeyPath<Wiring.Settings, Bool>) -> Bool {
        var value = settings[keyPath: setting]
        defer { settings[keyPath: setting] = value }
        return flag(&value)
    }

    /// The argument as it was written: a positional one when it is not an option.
    var argument: String { arguments[index] }
    var isPositional: Bool { !argument.isEmpty && !argument.hasPrefix("-") }

    /// The option's value, inline or the next argument; nil where ArgumentParser would take
    /// none (`--name=`, the end, or an argument that starts with a dash: an option; `-` alone
    /// when `dashAllowed`, as `--data -`).
    mutating func value(dashAllowed: Bool = false) -> String? {
        if let inline { return inline.isEmpty ? nil : inline }
        index += 1
        guard index < arguments.count else { return nil }
        let next = arguments[index]
        guard !next.hasPrefix("-") || (dashAllowed && next == "-") else { return nil }
        return next
    }

    /// A value for an option given once, that `accepts` takes.
    mutating func once(_ target: inout String?, dashAllowed: Bool = false, _ accepts: (String) -> Bool = { _ in true }) -> Bool {
        guard target == nil, let text = value(dashAllowed: dashAllowed), accepts(text) else { return false }
        target = text
        return true
    }

    /// A flag, once, without a value.
    mutating func flag(_ target: inout Bool) -> Bool {
        guard inline == nil, !target else { return false }
        target = true
        return true
    }

    /// `--keystore` and `--config` as `GlobalOptions` takes them (`token`'s hand parser too).
    static func isPath(_ value: String) -> Bool {
        !value.trimming(.whitespacesAndNewlines).isEmpty && !value.contains(where: \.isNewline)
    }
}
