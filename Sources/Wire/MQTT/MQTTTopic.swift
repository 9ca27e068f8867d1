/// Topic name and topic filter rules and matching (MQTT 3.1.1 §4.7).
///
/// Checks work on the UTF-8 bytes: the separator and both wildcards are ASCII, so they can
/// never appear inside a multi-byte sequence.
public enum MQTTTopic {
    private static let slash = UInt8(ascii: "/")
    private static let plus = UInt8(ascii: "+")
    private static let hash = UInt8(ascii: "#")
    private static let dollar = UInt8(ascii: "$")

    /// Checks a topic name, as carried by PUBLISH and the will.
    ///
    /// A name is 1…65535 bytes [MQTT-4.7.3-1, MQTT-4.7.3-3], has no U+0000 [MQTT-4.7.3-2]
    /// and no wildcard characters [MQTT-3.3.2-2, MQTT-4.7.1-1].
    /// - Throws: `WireError` (`.malformed`, or `.tooLarge` beyond 65535 bytes).
    public static func validateName(_ name: String) throws(WireError) {
        let utf8 = name.utf8
        try checkLength(utf8.count, "topic name")
        for byte in utf8 {
            switch byte {
            case 0: throw MQTTCodec.malformed("topic name contains U+0000 (§4.7.3)")
            case plus, hash: throw MQTTCodec.malformed("topic name \"\(name)\" contains a wildcard (§4.7.1)")
            default: continue
            }
        }
    }

    /// Checks a topic filter, as carried by SUBSCRIBE and UNSUBSCRIBE.
    ///
    /// Besides the length and U+0000 rules of names (§4.7.3): `+` must fill a whole level
    /// [MQTT-4.7.1-3], and `#` must fill a whole level and be the last one [MQTT-4.7.1-2].
    /// - Throws: `WireError` (`.malformed`, or `.tooLarge` beyond 65535 bytes).
    public static func validateFilter(_ filter: String) throws(WireError) {
        let utf8 = filter.utf8
        try checkLength(utf8.count, "topic filter")
        var levelLength = 0
        var levelIsWildcard = false
        var sawHash = false
        for byte in utf8 {
            if sawHash {
                throw MQTTCodec.malformed("topic filter \"\(filter)\" has '#' before its last level (§4.7.1.2)")
            }
            switch byte {
            case 0:
                throw MQTTCodec.malformed("topic filter contains U+0000 (§4.7.3)")
            case slash:
                levelLength = 0
                levelIsWildcard = false
                continue
            case plus, hash:
                guard levelLength == 0 else {
                    throw MQTTCodec.malformed("topic filter \"\(filter)\" has a wildcard sharing a level (§4.7.1)")
                }
                levelIsWildcard = true
                sawHash = byte == hash
            default:
                guard !levelIsWildcard else {
                    throw MQTTCodec.malformed("topic filter \"\(filter)\" has a wildcard sharing a level (§4.7.1)")
                }
            }
            levelLength += 1
        }
    }

    /// Whether a topic name matches a topic filter (§4.7.1, §4.7.2).
    ///
    /// `+` matches exactly one level (possibly empty), `#` matches its parent level and any
    /// number of children, and a filter that starts with a wildcard does not match topics
    /// beginning with `$` [MQTT-4.7.2-1]. Matching is case-sensitive and byte-exact
    /// (§4.7.3). Both arguments are assumed valid (see `validateName` and `validateFilter`);
    /// empty strings never match. No allocation: this runs for every inbound message.
    public static func matches(filter: String, topic: String) -> Bool {
        let filter = filter.utf8
        let topic = topic.utf8
        guard let filterFirst = filter.first, let topicFirst = topic.first else { return false }
        if topicFirst == dollar && (filterFirst == plus || filterFirst == hash) { return false }

        var filterIndex = filter.startIndex
        // `nil` once every level of the topic has been consumed.
        var topicIndex: String.UTF8View.Index? = topic.startIndex
        while true {
            let filterEnd = filter[filterIndex...].firstIndex(of: slash) ?? filter.endIndex
            let filterLevel = filter[filterIndex..<filterEnd]
            let isSingle = filterLevel.count == 1
            if isSingle && filterLevel.first == hash { return true }
            guard let topicStart = topicIndex else { return false }
            let topicEnd = topic[topicStart...].firstIndex(of: slash) ?? topic.endIndex
            if !(isSingle && filterLevel.first == plus)
                && !filterLevel.elementsEqual(topic[topicStart..<topicEnd])
            {
                return false
            }
            let topicDone = topicEnd == topic.endIndex
            if filterEnd == filter.endIndex { return topicDone }
            filterIndex = filter.index(after: filterEnd)
            topicIndex = topicDone ? nil : topic.index(after: topicEnd)
        }
    }

    private static func checkLength(_ count: Int, _ what: String) throws(WireError) {
        guard count > 0 else { throw MQTTCodec.malformed("\(what) is empty (§4.7.3)") }
        guard count <= MQTTCodec.maxStringLength else {
            throw MQTTCodec.tooLarge("\(what) is \(count) bytes; at most 65535 are allowed (§4.7.3)")
        }
    }
}
