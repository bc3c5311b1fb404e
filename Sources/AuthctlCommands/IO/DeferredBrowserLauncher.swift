import AuthCore
import Synchronization

/// A browser launcher made when a sign-in first starts the browser, not before: which one it
/// is (`Wiring.browser`) depends on the variables config.json and the keystore read secrets
/// from, and reading both costs a command that never signs in — `request`, whose step-up
/// rarely comes — a tenth of its start (bench/README.md).
final class DeferredBrowserLauncher: BrowserLauncher, Sendable {
    private let make: @Sendable () -> any BrowserLauncher
    private let made = Mutex<(any BrowserLauncher)?>(nil)

    init(_ make: @escaping @Sendable () -> any BrowserLauncher) { self.make = make }

    /// The launcher, made once.
    var launcher: any BrowserLauncher {
        made.withLock { made in
            if let made { return made }
            let launcher = make()
            made = launcher
            return launcher
        }
    }

    func open(_ url: URL) async -> Bool { await launcher.open(url) }
    func hiding(_ configured: Set<String>) -> any BrowserLauncher {
        DeferredBrowserLauncher { [self] in launcher.hiding(configured) }
    }
    func launch(_ url: URL) async -> BrowserLaunch { await launcher.launch(url) }
    func launchWatching(_ url: URL) async -> BrowserStart { await launcher.launchWatching(url) }
}
