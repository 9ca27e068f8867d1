import Bridge
import Wire

extension BridgeConfiguration {
    /// `samsung.events`, `samsung.event_port` (0 = any free port) and `samsung.event_callback_host`.
    static func decodeSamsungEvents(_ members: [String: JSONValue], into samsung: inout Samsung, _ reader: ConfigReader)
        throws(ConfigError)
    {
        if let events = try reader.bool(members["events"], "samsung.events") { samsung.events = events }
        if let port = try reader.integer(members["event_port"], "samsung.event_port", in: 0...65535) {
            samsung.eventPort = UInt16(port)
        }
        if let host = try reader.string(members["event_callback_host"], "samsung.event_callback_host"), !host.isEmpty {
            try validateHost(host, "samsung.event_callback_host", reader)
            samsung.eventCallbackHost = host
        }
    }
}
