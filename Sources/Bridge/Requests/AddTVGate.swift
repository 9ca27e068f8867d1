import Net
import Synchronization

/// Who sent a bridge request, as far as the bridge can tell, so one requester cannot spend
/// everyone's `tv/add` budget (`AddTVGate`). MQTT 3.1.1 tells a subscriber nothing about a
/// message's publisher (no client id, no address), and what a request itself says (its
/// `transaction`, any id in it) is the requester's own word: a bucket per transaction would
/// give a hostile publisher a fresh bucket per request. So the buckets are the channels the
/// bridge can tell apart: every MQTT request (the broker's ACL decides who may publish one),
/// and each address the status page serves.
public struct Requester: Sendable, Hashable, CustomStringConvertible {
    let key: String

    /// `<base>/bridge/request/…` (and the bridge device's buttons, which publish there).
    public static let mqtt = Requester(key: "mqtt")

    /// The status page, for the client at `address` (an `http.allow_from` gateway is one).
    public static func statusPage(_ address: String) -> Requester { Requester(key: "status page \(address)") }

    public var description: String { key }
}

/// How many `tv/add` probes may run, and how often (README › Bridge requests): each probe
/// connects to an address a stranger may have chosen, so they are few at a time and few a
/// minute for each requester (`Requester`). A request beyond either is refused at once, with a
/// message saying which, rather than queued.
final class AddTVGate: Sendable {
    static let concurrency = 4
    static let perWindow = 20
    static let window = Duration.seconds(60)
    /// Requesters tracked at once; past that a new one is refused until a window ends.
    static let maxRequesters = 64

    private let running = ProbePool(concurrency: concurrency)
    private let rate = Mutex(SourceRateLimiter(limit: perWindow, window: window, maxSources: maxRequesters))

    /// Takes a slot for one probe by `requester`, or says why not; pair a success with `leave()`.
    func enter(for requester: Requester) async throws(BridgeService.RequestError) {
        guard await running.tryAcquire() else {
            throw .init(
                "\(Self.concurrency) tv/add probes are running; ask again once they have answered")
        }
        guard rate.withLock({ $0.allow(requester.key, now: LoopClock.current.now) }) else {
            await running.release()
            throw .init(
                "too many tv/add requests: at most \(Self.perWindow) probes a minute; try again in a minute"
            )
        }
    }

    func leave() async { await running.release() }
}
