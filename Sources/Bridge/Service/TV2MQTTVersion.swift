/// The version of tv2mqtt, printed by `tv2mqtt version` and published in `bridge/info`.
public enum TV2MQTTVersion {
    public static let current = "0.1.0"
    public static let url = "https://github.com/tv2mqtt/tv2mqtt"
}
