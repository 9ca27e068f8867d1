/// `<base>/bridge/info`: the retained JSON document about the bridge itself (README › MQTT topics
/// and commands).
public enum BridgeInfo {
    /// Its fields, the one list of their names: the bridge writes them, Home Assistant's
    /// `version` sensor and `log_level` select read them.
    public enum Field: String, Sendable, CaseIterable {
        case version, uptime, config
        case startedAt = "started_at"
        case tvCount = "tv_count"
        case logLevel = "log_level"
    }
}
