import Clients
import Synchronization

/// A steady stream of QoS 1 commands to one TV, each typing one character of its own
/// (`set/text`, a `Lit_` keypress on a Roku), so the TV's command log tells how many times
/// each command was carried out.
///
/// `pause()` returns only once no publish is in flight: the broker can then be restarted
/// without a command caught half-way. Such a command is not the bridge's to count — the
/// observer would resend it after reconnecting (QoS 1 is at least once on the publisher's side),
/// and the broker, which keeps no sessions here, might forget it.
actor FaultCommandStream {
    let fixture: BridgeFixture
    let topic: String
    let interval: Duration
    /// The characters whose PUBLISH the broker acknowledged, in order.
    private(set) var acknowledged: [String] = []
    /// Publishes that failed (the observer was not connected); nothing was sent for these.
    private(set) var failures = 0
    private var paused = true
    private var busy = false
    private var next = 0

    init(fixture: BridgeFixture, topic: String, interval: Duration = .milliseconds(20)) {
        self.fixture = fixture
        self.topic = topic
        self.interval = interval
    }

    /// The character of command `index`: CJK ideographs, never repeated within a test.
    static func tag(_ index: Int) -> String { String(Character(Unicode.Scalar(0x4E00 + UInt32(index))!)) }

    /// Publishes until the task is cancelled, while not paused.
    func run() async {
        while !Task.isCancelled {
            if paused {
                try? await Task.sleep(for: .milliseconds(5))
                continue
            }
            busy = true
            let tag = Self.tag(next)
            next += 1
            do {
                try await fixture.observer.publish(topic, Array(tag.utf8), qos: .atLeastOnce)
                acknowledged.append(tag)
            } catch {
                failures += 1
            }
            busy = false
            try? await Task.sleep(for: interval)
        }
    }

    func resume() { paused = false }

    /// Stops publishing; returns when the publish in progress, if any, has been acknowledged.
    func pause() async {
        paused = true
        while busy { try? await Task.sleep(for: .milliseconds(2)) }
    }
}
