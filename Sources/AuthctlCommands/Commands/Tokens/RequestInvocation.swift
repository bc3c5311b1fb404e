import AuthCore

/// `authctl request` as plain values: what `RequestCommand` (ArgumentParser) parses, and what
/// the hand parser (`parseFast`) makes of the common forms without ArgumentParser, whose first
/// parse costs a request more than libcurl's load (issue 37, bench/README.md: 17.6 M of its
/// 46.5 M instructions). RequestParserAgreementTests holds the two parsers to each other.
struct RequestInvocation: WiredCommand, Equatable {
    var url: String
    var method: String?
    var headers: [String] = []
    var data: String?
    var include = false
    var browserCommand: String?
    var timeout = 300
    var settings: Wiring.Settings

    var signsIn: Bool { true }
    var takesUser: Bool { true }

    /// The arguments after `request`, in the forms `request URL [-X M] [-H 'N: v']… [--data D]
    /// [--include] [--browser-command C] [--timeout N]` and the global options, each at most once (a
    /// header any number of times), as `--name value`, `--name=value` or a short option with
    /// its value apart; nil for anything else — help, an unknown option, a repeated one, a
    /// value ArgumentParser would refuse or read as an option (one that starts with a dash,
    /// but `--data -`), `--`, a second URL — which then goes through ArgumentParser for its
    /// usual messages. It applies `RequestCommand.validate`'s and `GlobalOptions`' rules itself.
    static func parseFast(_ arguments: [String]) -> RequestInvocation? {
        var url: String?, method: String?, data: String?, browserCommand: String?, timeout: Int?
        var headers: [String] = []
        var include = false
        var settings = Wiring.Settings()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            /// The option's value, inline or the next argument; nil where ArgumentParser would
            /// take no value (the end, or an argument that starts with a dash: an option).
            func value(dashAllowed: Bool = false) -> String? {
                if let inline { return inline.isEmpty ? nil : inline }  // `--data=`: ArgumentParser's "missing value"
                index += 1
                guard index < arguments.count else { return nil }
                let next = arguments[index]
                guard !next.hasPrefix("-") || (dashAllowed && next == "-") else { return nil }
                return next
            }
            /// A value for an option given once.
            func once(_ target: inout String?, dashAllowed: Bool = false, _ accepts: (String) -> Bool = { _ in true }) -> Bool {
                guard target == nil, let text = value(dashAllowed: dashAllowed), accepts(text) else { return false }
                target = text
                return true
            }
            func flag(_ target: inout Bool) -> Bool {
                guard inline == nil, !target else { return false }
                target = true
                return true
            }
            let read: Bool
            switch name {
            case "-X", "--method": read = once(&method)
            case "-H", "--header":
                guard let header = value(), parseHeader(header) != nil else { return nil }
                headers.append(header)
                read = true
            case "--data": read = once(&data, dashAllowed: true)
            case "--include": read = flag(&include)
            case "--browser-command": read = once(&browserCommand)
            case "--timeout":
                var text: String?
                read = timeout == nil && once(&text) { $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
                guard read, let seconds = text.flatMap({ Int($0) }), FlowArguments.timeoutRange.contains(seconds) else { return nil }
                timeout = seconds
            case "--keystore": read = once(&settings.keystore, Self.isPath)
            case "--config": read = once(&settings.config, Self.isPath)
            case "--user": read = once(&settings.user, IdentityRule.isUserSelector)
            case "--json": read = flag(&settings.json)
            case "-v", "--verbose": read = flag(&settings.verbose)
            case "-q", "--quiet": read = flag(&settings.quiet)
            default:
                read = url == nil && !argument.isEmpty && !argument.hasPrefix("-")
                url = argument
            }
            guard read else { return nil }
            index += 1
        }
        guard let url else { return nil }
        return RequestInvocation(
            url: url, method: method, headers: headers, data: data, include: include, browserCommand: browserCommand,
            timeout: timeout ?? 300, settings: settings)
    }

    /// `--keystore` and `--config` as `GlobalOptions` takes them (as `token`'s hand parser does).
    static func isPath(_ value: String) -> Bool {
        !value.trimming(.whitespacesAndNewlines).isEmpty && !value.contains(where: \.isNewline)
    }
}
