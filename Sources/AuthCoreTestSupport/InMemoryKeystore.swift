import AuthCore
import Foundation

/// A keystore in memory. Updates are serialised by the caller (tests run one at a time);
/// it counts writes so tests can prove that a failure wrote nothing.
public final class InMemoryKeystore: Keystore, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: AccountState
    private var writeCount = 0

    public init(_ state: AccountState = AccountState()) { stored = state }

    public var state: AccountState { lock.withLock { stored } }
    public var writes: Int { lock.withLock { writeCount } }

    public func read() throws -> AccountState { state }

    public func update<T: Sendable>(_ change: (inout AccountState) async throws -> T) async throws -> T {
        var copy = state
        let result = try await change(&copy)
        lock.withLock {
            if copy != stored {
                stored = copy
                writeCount += 1
            }
        }
        return result
    }
}
