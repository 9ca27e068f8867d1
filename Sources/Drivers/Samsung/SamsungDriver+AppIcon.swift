import TVModel
import Wire

/// The `app_icon` of a Samsung: the app's `icon` path from `ed.installedApp.get`,
/// asked with `ed.apps.icon` on the open remote channel. Firmware that does not answer
/// `ed.installedApp.get` (2021 models on) gives no icon paths, so no icons.
extension SamsungDriver {
    public func appIcon(_ appID: String) async throws(DriverError) -> AppIcon? {
        guard let path = state.withLock({ $0.installed.first { $0.appID == appID }?.iconPath }) else { return nil }
        guard let base64 = await channel.appIcon(path: path, timeout: options.appListTimeout) else {
            throw DriverError(.timeout, "no ed.apps.icon answer for \(appID) (the remote channel is closed or silent)")
        }
        guard let bytes = try? Base64.decode(base64) else {
            throw DriverError(.badResponse, "the ed.apps.icon answer for \(appID) is not base64")
        }
        return AppIcon.decode(bytes, declaredType: nil)
    }
}
