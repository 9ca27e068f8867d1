import Clients
import Wire

/// The UPnP description SSDP's LOCATION names (port 1754 on real sets): the friendly name the
/// user gave the TV, the model and the UDN. Read when the probe can; without it the probe's
/// `hello` still names the TV by its UUID.
struct LGDeviceDescription: Equatable, Sendable {
    static let defaultPort: UInt16 = 1754

    var friendlyName: String?
    var modelName: String?
    /// The UDN without `uuid:` (the same UUID `hello` reports).
    var uuid: String?

    static func fetch(host: String, port: UInt16, timeout: Duration) async -> LGDeviceDescription? {
        let client = HTTPClient(
            host: host, port: port, connectTimeout: timeout, requestTimeout: timeout, maxBodyBytes: 64 * 1024)
        defer { Task { await client.closeIdle() } }
        guard let response = try? await client.request("GET", "/"), response.status == 200 else { return nil }
        return try? parse(response.body)
    }

    static func parse(_ body: some Collection<UInt8>) throws(DriverError) -> LGDeviceDescription {
        let root: XMLElement
        do {
            root = try XMLReader.parse(body, limits: UPnPDeviceDescription.limits)
        } catch {
            throw DriverError(.badResponse, "the LG TV's description is not XML (\(error))")
        }
        guard let device = root.firstChild(localName: "device") else {
            throw DriverError(.badResponse, "the LG TV's description has no device")
        }
        func text(_ name: String) -> String? {
            guard let value = device.firstChild(localName: name)?.trimmedText, !value.isEmpty else { return nil }
            return TVDescription.boundedName(value)
        }
        let udn = text("UDN").map { $0.hasPrefix("uuid:") ? String($0.dropFirst(5)) : $0 }
        return LGDeviceDescription(friendlyName: text("friendlyName"), modelName: text("modelName"), uuid: udn)
    }
}
