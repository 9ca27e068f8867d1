import Clients
import Synchronization

/// A steady stream of QoS 1 commands to one TV, each typing one character of its own
/// (`set/text`, a `Lit_` keypress on a Roku), so the TV's command log tells how many times
/// each command was carried out.
///
/// It publishes whatever the broker and the bridge are doing, and records for each command
/// when its publish began and ended, how it ended (acknowledged by the broker, or refused by
/// the publishing client), and whether the bridge was connected when it ended: the test sorts
/// the commands by what was happening to them (see `FaultBrokerRestartTests`).
actor FaultCommandStream {
    struct Record: Sendable {
        let tag: String
        let started: ContinuousClock.Instant
        let ended: ContinuousClock.Instant
        /// nil when the broker acknowledged the PUBLISH; the client's error otherwise.
        let error: MQTTClientError?
        /// The bridge's MQTT client was connected when the publish ended.
        let bridgeConnected: Bool
    }

    let fixture: BridgeFixture
    let topic: String
    let interval: Duration
    let bridgeConnected: @Sendable () async -> Bool
    private(set) var records: [Record] = []
    private var paused = true
    private var busy = false
    private var next = 0

    init(
        fixture: BridgeFixture, topic: String, interval: Duration = .milliseconds(20),
        bridgeConnected: @escaping @Sendable () async -> Bool
    ) {
        self.fixture = fixture
        self.topic = topic
        self.interval = interval
        self.bridgeConnected = bridgeConnected
    }

    /// The character of command `index`: CJK ideographs, never repeated within a test.
    static func tag(_ index: Int) -> String { String(Character(Unicode.Scalar(0x4E00 + UInt32(index))!)) }

    /// Publishes until the task is cancelled, while not paused. A publish in flight when the
    /// connection drops is resent after the observer reconnects (QoS 1), so it may end late.
    func run() async {
        while !Task.isCancelled {
            if paused {
                try? await Task.sleep(for: .milliseconds(5))
                continue
            }
            busy = true
            let tag = Self.tag(next)
            next += 1
            let started = ContinuousClock.now
            var failure: MQTTClientError?
            do {
                try await fixture.observer.publish(topic, Array(tag.utf8), qos: .atLeastOnce)
            } catch {
                failure = error
            }
            let connected = await bridgeConnected()
            records.append(
                Record(tag: tag, started: started, ended: .now, error: failure, bridgeConnected: connected))
            busy = false
            try? await Task.sleep(for: interval)
        }
    }

    func resume() { paused = false }

    /// Stops publishing; returns when the publish in progress, if any, has ended.
    func pause() async {
        paused = true
        while busy { try? await Task.sleep(for: .milliseconds(2)) }
    }
}
