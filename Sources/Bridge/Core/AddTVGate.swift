import Net
import Synchronization

/// How many `tv/add` probes may run, and how often (README › Bridge requests): each probe connects
/// to an address a stranger may have chosen, so they are few at a time and few a minute. A request
/// beyond either is refused at once, with a message saying which, rather than queued.
final class AddTVGate: Sendable {
    static let concurrency = 4
    static let perWindow = 20
    static let window = Duration.seconds(60)

    private let running = ProbePool(concurrency: concurrency)
    private let rate = Mutex(SourceRateLimiter(limit: perWindow, window: window, maxSources: 1))

    /// Takes a slot for one probe, or says why not; pair a success with `leave()`.
    func enter() async throws(BridgeService.RequestError) {
        guard await running.tryAcquire() else {
            throw .init(
                "\(Self.concurrency) tv/add probes are running; ask again once they have answered")
        }
        guard rate.withLock({ $0.allow("tv/add", now: LoopClock.current.now) }) else {
            await running.release()
            throw .init(
                "too many tv/add requests: at most \(Self.perWindow) probes a minute; try again in a minute"
            )
        }
    }

    func leave() async { await running.release() }
}
