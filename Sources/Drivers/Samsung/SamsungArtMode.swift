import TVModel

/// The Frame's art mode as the bridge sees it: a switch the Samsung driver declares for a TV
/// whose REST API reports `FrameTVSupport`, its state `ON` while art shows
/// (`SamsungDriver+Art.swift`), its command `set/art_mode`.
public enum SamsungArtMode {
    public static let control = DeclaredControl(
        key: "art_mode", platform: .switch, name: "Art mode", icon: "mdi:image-frame", stateFileFlag: "artMode")
}

extension TVCapabilities {
    /// A Frame: the art mode switch is declared.
    public var artMode: Bool {
        get { controls.contains { $0.key == SamsungArtMode.control.key } }
        set {
            controls.removeAll { $0.key == SamsungArtMode.control.key }
            if newValue { controls.append(SamsungArtMode.control) }
        }
    }
}

extension TVSnapshot {
    /// Showing art (then `power` is false and `powerMode` is "art"); nil on TVs without art
    /// mode, or while unknown.
    public var artMode: Bool? {
        get { declared[SamsungArtMode.control.key].map { $0 == "ON" } }
        set { declared[SamsungArtMode.control.key] = newValue.map { $0 ? "ON" : "OFF" } }
    }
}

extension TVCommand {
    /// Show art (`true`) or TV (`false`).
    public static func artMode(_ on: Bool) -> TVCommand {
        .control(key: SamsungArtMode.control.key, value: on ? "ON" : "OFF")
    }
}
