import Clients
import Net
import TVModel

/// Tells a pre-2016 Samsung apart: its legacy remote port (55000) accepts a connection. Probing
/// only connects and closes; it never authenticates, which would show the TV's allow prompt.
public enum SamsungLegacyProbe {
    /// The TV at `host` as a legacy Samsung, if its remote port answers.
    public static func describe(host: String, port: UInt16?, settings: DriverSettings)
        async throws(DriverError) -> TVDescription
    {
        let port = port ?? Vendor.samsungLegacy.defaultPort
        do {
            let connection = try await TCPConnection.connect(host: host, port: port, timeout: settings.connectTimeout)
            connection.close()
        } catch {
            // Refused: the host is up without a legacy port; maybe an encrypted model. (One that
            // does not answer at all is off or absent: no second wait for its REST port.)
            let refused = (error as? NetError)?.kind == .refused
            if refused, await isEncryptedModel(host: host, restPort: nil, settings: settings) {
                throw DriverError(.unsupported, "\(host): \(SamsungLegacyHelp.encryptedModel)")
            }
            throw DriverError(.unreachable, "no legacy Samsung remote port at \(host):\(port): \(error)")
        }
        return SamsungLegacyDriver.describe(host: host, port: port)
    }

    /// After the Tizen probe (`GET /api/v2/` on `restPort`) failed with `modern`: a TV that
    /// answers SSDP as a Samsung remote receiver without that API is a pre-2016 one (legacy port
    /// on its default) or a 2014–2015 encrypted one (said clearly); otherwise `modern` stands.
    public static func describeAfter(
        _ modern: DriverError, host: String, restPort: UInt16?, settings: DriverSettings
    ) async throws(DriverError) -> TVDescription {
        let port = Vendor.samsungLegacy.defaultPort
        if let connection = try? await TCPConnection.connect(host: host, port: port, timeout: settings.connectTimeout) {
            connection.close()
            return SamsungLegacyDriver.describe(host: host, port: port)
        }
        if await isEncryptedModel(host: host, restPort: restPort, settings: settings) {
            throw DriverError(.unsupported, "\(host): \(SamsungLegacyHelp.encryptedModel)")
        }
        throw modern
    }

    /// Whether `host` answers `GET /ms/1.0/` on its REST port: the device information of the
    /// 2014–2015 H/J series, which pair with the encrypted PIN protocol.
    static func isEncryptedModel(host: String, restPort: UInt16?, settings: DriverSettings) async -> Bool {
        let client = HTTPClient(
            host: host, port: restPort ?? Vendor.samsung.defaultPort, connectTimeout: settings.connectTimeout,
            requestTimeout: settings.requestTimeout, maxBodyBytes: 16 * 1024, maxIdle: 0)
        defer { Task { await client.closeIdle() } }
        guard let response = try? await client.request("GET", "/ms/1.0/") else { return false }
        return response.isSuccess && response.body.count > 0
            && String(decoding: response.body, as: UTF8.self).contains("DeviceID")
    }
}
