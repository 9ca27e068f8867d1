/// Where the broker is: `mqtt://host[:1883]` or `mqtts://host[:8883]`.
public struct BrokerAddress: Sendable, Equatable, CustomStringConvertible {
    public var useTLS: Bool
    public var host: String
    public var port: UInt16

    public init(useTLS: Bool, host: String, port: UInt16) {
        (self.useTLS, self.host, self.port) = (useTLS, host, port)
    }

    public var description: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(useTLS ? "mqtts" : "mqtt")://\(bracketed):\(port)"
    }
}
