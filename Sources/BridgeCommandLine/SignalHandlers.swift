import Dispatch
import Glibc
import Synchronization

/// SIGTERM and SIGINT delivered to a handler on a Dispatch queue; a second signal ends the
/// process at once.
///
/// The signals are unblocked first: a parent (Foundation.Process, some supervisors) may start
/// us with them blocked, and then `systemctl stop` or `docker stop` would never reach us.
final class SignalHandlers: @unchecked Sendable {  // immutable after init; DispatchSource is thread-safe
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        var made: [any DispatchSourceSignal] = []
        let count = Counter()
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)  // Dispatch sees it; the default action must not kill us first
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if count.increment() > 1 { exit(1) }
                handler(number)
            }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Mutex(0)

    func increment() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
