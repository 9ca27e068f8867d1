/// What tv2mqtt last published on each discovery topic, so a config is re-sent only when it
/// changes. Pure: the caller publishes what `plan` returns.
///
/// It keeps a fingerprint per topic rather than the payload: a thousand TVs' device configs are
/// megabytes of text, more than the rest of the daemon. The fingerprint is the UTF-8
/// length, FNV-1a and a per-process keyed SipHash of the exact bytes (not of the `String`,
/// whose hashing treats canonically equivalent texts as equal): the keyed hash alone leaves a
/// changed payload unsent with a chance of about 2⁻⁶⁴, even for text a TV crafted.
public struct DiscoveryCache: Sendable, Equatable {
    struct Fingerprint: Hashable, Sendable {
        var count: Int
        var fnv: UInt64
        var sip: Int

        init(_ payload: String) {
            var bytes = payload
            let (fnv, sip) = bytes.withUTF8 { buffer in
                var fnv: UInt64 = 0xcbf2_9ce4_8422_2325
                for byte in buffer { fnv = (fnv ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
                var hasher = Hasher()
                hasher.combine(bytes: UnsafeRawBufferPointer(buffer))
                return (fnv, hasher.finalize())
            }
            self.count = payload.utf8.count
            self.fnv = fnv
            self.sip = sip
        }
    }

    /// topic → fingerprint of the last payload sent there (an empty payload included).
    private var sent: [String: Fingerprint] = [:]
    /// owner (a TV id or the bridge id) → topics it holds a config on. Kept by `forgetAll`,
    /// because those configs are still retained on the broker.
    private var topicsByOwner: [String: Set<String>] = [:]

    public init() {}

    /// The messages of `desired` whose payload differs from what was last sent on their topic;
    /// they are recorded as sent. An empty payload (a clear) is sent once, then remembered too.
    public mutating func plan(_ desired: [DiscoveryMessage]) -> [DiscoveryMessage] {
        var result: [DiscoveryMessage] = []
        for message in desired {
            let fingerprint = Fingerprint(message.payload)
            guard sent[message.topic] != fingerprint else { continue }
            sent[message.topic] = fingerprint
            result.append(message)
        }
        return result
    }

    /// Plans everything one owner (a TV id, or the bridge id) should have now. Besides what
    /// changed, it clears the topics this owner was given before and no longer wants: in entity
    /// style, the entity of a capability the TV lost.
    public mutating func plan(_ desired: [DiscoveryMessage], owner: String) -> [DiscoveryMessage] {
        let wanted = Set(desired.lazy.filter { !$0.isClear }.map(\.topic))
        let dropped = (topicsByOwner[owner] ?? []).subtracting(wanted).sorted()
        let result = plan(desired + dropped.map(DiscoveryMessage.clear))
        if wanted.isEmpty {
            topicsByOwner[owner] = nil
        } else {
            topicsByOwner[owner] = wanted
        }
        return result
    }

    /// Clears every config `owner` was given through `plan(_:owner:)` (a removed TV).
    public mutating func clearAll(owner: String) -> [DiscoveryMessage] {
        plan([], owner: owner)
    }

    /// Forgets what was sent, so the next `plan` sends everything again: after Home Assistant's
    /// birth message, whose broker may have lost retained configs. Ownership is kept.
    public mutating func forgetAll() {
        sent.removeAll()
    }

    /// Forgets one topic (for instance after someone else cleared it on the broker).
    public mutating func forget(topic: String) {
        sent[topic] = nil
    }

    /// Whether `payload` is what was last sent on `topic`.
    public func isCurrent(topic: String, payload: String) -> Bool {
        sent[topic] == Fingerprint(payload)
    }

    /// How many topics the cache remembers.
    public var count: Int { sent.count }
}
