import TVModel

/// Asks a device whether it is a Roku and who it is: device-info, then the app list.
public enum RokuProbe {
    public static func describe(host: String, port: UInt16?, settings: DriverSettings)
        async throws(DriverError)
        -> TVDescription
    {
        let port = port ?? Vendor.roku.defaultPort
        let ecp = RokuECP(host: host, port: port, settings: settings)
        let info: RokuDeviceInfo
        do {
            info = try RokuDeviceInfo.parse(try await ecp.query("/query/device-info"))
        } catch {
            await ecp.http.closeIdle()
            throw error
        }
        // The app list is a nicety here: the driver reads it again on its first poll.
        var apps: [RokuApp] = []
        if let body = try? await ecp.query("/query/apps") {
            apps = (try? RokuApp.parseList(body)) ?? []
        }
        await ecp.http.closeIdle()
        return try RokuDescriptionBuilder.description(info, apps: apps, host: host, port: port)
    }
}
