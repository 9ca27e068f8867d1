import Net
import Wire

/// A service instance that answered a DNS-SD browse (RFC 6763), put together from one answer's
/// PTR, SRV, TXT and address records.
public struct DNSSDSighting: Equatable, Sendable {
    /// The responder's IP address (the datagram's source): the only address the bridge reaches.
    public var address: String
    /// The service type that led to it, `_androidtvremote2._tcp.local`.
    public var service: DNSName
    /// The instance's own label, free text: "Living Room TV".
    public var instance: String
    /// The SRV record's target host and port; nil when the answer had no SRV for the instance.
    public var host: DNSName?
    public var port: UInt16?
    /// The TXT record's attributes (keys lower case), empty without one.
    public var txt: [String: [UInt8]?]

    /// A TXT attribute as text; nil when absent, valueless or not UTF-8.
    public func text(_ key: String) -> String? {
        guard case .some(.some(let value)) = txt[key.lowercased()] else { return nil }
        return String(validating: value, as: UTF8.self)
    }

    /// The sightings in `message`, from `sender`: one per PTR answer for a service in
    /// `services`, with the SRV and TXT of its instance and the addresses of the SRV's host
    /// found anywhere in the message. `namesOtherHost` lists instances whose address records
    /// name only other hosts than the sender (they are not sightings).
    static func read(_ message: DNSMessage, from sender: String, services: [DNSName]) -> (
        sightings: [DNSSDSighting], namesOtherHost: [(instance: String, addresses: [String])]
    ) {
        let records = message.records
        var sightings: [DNSSDSighting] = []
        var foreign: [(String, [String])] = []
        for pointer in records where pointer.type == .ptr && pointer.ttl > 0 {
            guard case .ptr(let instance) = pointer.data, services.contains(pointer.name),
                instance.parent == pointer.name, let label = instance.firstLabel
            else { continue }
            var sighting = DNSSDSighting(
                address: sender, service: pointer.name, instance: label, host: nil, port: nil, txt: [:])
            for record in records where record.name == instance {
                switch record.data {
                case .srv(_, _, let port, let target): (sighting.host, sighting.port) = (target, port)
                case .txt: sighting.txt = record.txtAttributes
                default: break
                }
            }
            let addresses = records.compactMap { record -> String? in
                guard record.name == sighting.host else { return nil }
                switch record.data {
                case .a(let bytes): return bytes.map(String.init).joined(separator: ".")
                case .aaaa(let bytes): return SocketAddress.ipv6Text(bytes)
                default: return nil
                }
            }
            if !addresses.isEmpty && !addresses.contains(sender) {
                foreign.append((label, addresses))
                continue
            }
            sightings.append(sighting)
        }
        return (sightings, foreign)
    }
}
