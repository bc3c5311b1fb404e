import ArgumentParser
import AuthCore
import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The entry point: parse, run one command, map any error to SPEC §6 in one place.
// Ctrl-C cancels the running command (the loopback listener closes; exit 5).

let arguments = GlobalOptions.hoistingLeadingGlobals(Array(CommandLine.arguments.dropFirst()))
// What follows `--` is the child's (`exec -- echo --json`), never authctl's own option.
// git-credential's stdout is git's protocol alone: its errors go to stderr only.
let wantsJSON = arguments.first != "git-credential" && arguments.prefix(while: { $0 != "--" }).contains("--json")

/// The command to run. `authctl token …` — the hot path, often run before every request —
/// skips ArgumentParser when its arguments are of the common forms (`TokenRequest.parseFast`),
/// and else is parsed as the `token` command alone, which spares building the whole command
/// tree (bench/README.md); anything unusual (help, completion requests, a parse error) goes
/// through the root, so messages and help are the same.
func parse(_ arguments: [String]) throws -> any ParsableCommand {
    if arguments.first == "token",
        !arguments.contains(where: {
            $0.hasPrefix("-h") || $0.hasPrefix("--help") || $0.hasPrefix("--generate") || $0.hasPrefix("--experimental")
        }),
        let token = try? Token.parse(Array(arguments.dropFirst()))
    {
        return token
    }
    return try Authctl.parseAsRoot(arguments)
}

signal(SIGINT, SIG_IGN)
let fastToken = arguments.first == "token" ? TokenRequest.parseFast(Array(arguments.dropFirst())) : nil
// The hot path, before any Task, Dispatch source or thread exists (starting Swift concurrency
// costs about a millisecond, bench/README.md): a cached token that answers the request is
// printed and that is all. Anything else — a refresh, an error — goes on below, unchanged.
if let fastToken,
    let printed = fastToken.printedFromCache(keystore: Wiring(settings: fastToken.settings).keystore(), now: SystemClock().now())
{
    StandardStreams.writeOutput(printed)
    exit(0)
}
let work = Task { () -> Int32 in
    do {
        if let request = fastToken {
            try await request.run()
            return 0
        }
        if let problem = CommandLineCheck.problem(with: arguments) { throw problem }
        var command = try parse(arguments)
        if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
        return 0
    } catch {
        switch ErrorMapping.outcome(for: error) {
        case .report(let error): return ErrorReport.emit(error, json: wantsJSON)
        case .exit(let status): return status
        case .argumentParserOutput: Authctl.exit(withError: error)  // --help, --version, completion scripts
        }
    }
}
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
// `@Sendable`: the handler runs on a Dispatch queue, not on the main actor of this top-level
// code (without it the Swift 6 runtime traps on the isolation check).
interrupt.setEventHandler { @Sendable in work.cancel() }
interrupt.resume()
exit(await work.value)
