import Dispatch

/// Work that may block its thread for a while, such as an `fsync` on a Raspberry Pi's SD card
/// (tens or hundreds of milliseconds).
///
/// The bridge's tasks share one thread, the event loop's (`EventLoop.becomeGlobalExecutor`):
/// blocking it would hold up every TV and the broker connection. Such work runs on one of
/// Dispatch's threads instead, and the task waits for it without holding the loop.
public enum BlockingWork {
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
