import Foundation

/// Where a test blocks: on a thread of its own, never on Swift's concurrency pool. On two
/// cores the pool has two threads; a test blocked there (a child's exit, a pipe read to its
/// end, a semaphore) holds one, and the loopback listener and the in-process fakes that the
/// awaited child depends on starve until a timeout fires.
public enum OffPool {
    /// `work`'s result, computed on a new thread while the caller awaits it.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = "OffPool"
            thread.start()
        }
    }

    /// Waits for `process` to end, off the pool; its exit status.
    public static func exit(of process: Process) async -> Int32 {
        let child = Unchecked(process)
        return await run {
            child.value.waitUntilExit()
            return child.value.terminationStatus
        }
    }

    /// `process` (started) to its end, off the pool: its status, and what it wrote to `stdout`
    /// and `stderr` (pipes, each read to its end, in that order).
    public static func finish(_ process: Process, stdout: Pipe? = nil, stderr: Pipe? = nil) async -> (
        status: Int32, stdout: Data, stderr: Data
    ) {
        let handles = Unchecked((process, stdout, stderr))
        return await run {
            let (process, stdout, stderr) = handles.value
            let out = stdout?.fileHandleForReading.readDataToEndOfFile() ?? Data()
            let err = stderr?.fileHandleForReading.readDataToEndOfFile() ?? Data()
            process.waitUntilExit()
            return (process.terminationStatus, out, err)
        }
    }

    /// A value handed to the waiting thread, which alone touches it until it resumes.
    struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
