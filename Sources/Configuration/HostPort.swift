/// `host:port`, e.g. an SSDP multicast address or a Wake-on-LAN target.
public struct HostPort: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) { (self.host, self.port) = (host, port) }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
