import TVModel
import Wire

/// What the TV's answers and pushes say, read into a snapshot. Every field is optional on
/// the wire; a missing or mistyped one leaves the snapshot's field as it was.
enum LGReadings {
    /// `getPowerState`: Active and Screen Saver are on; Screen Off is on with the screen off;
    /// Active Standby, Suspend and Power Off are off. A `processing` of a power-off or suspend
    /// request is off already (the TV is on its way).
    static func power(_ payload: JSONValue, into snapshot: inout TVSnapshot) {
        guard let state = payload["state"]?.stringValue else { return }
        let processing = payload["processing"]?.stringValue ?? ""
        snapshot.powerMode = state
        switch state {
        case "Active", "Screen Saver", "Screen Off": snapshot.power = !isGoingOff(processing)
        default: snapshot.power = false
        }
        snapshot.screenOn = snapshot.power == true ? state != "Screen Off" : nil
    }

    /// `getSoundOutput` (and webOS 5+'s `volumeStatus.soundOutput`).
    static func soundOutput(_ payload: JSONValue, into snapshot: inout TVSnapshot) {
        let output = payload["soundOutput"]?.stringValue ?? payload["volumeStatus"]?["soundOutput"]?.stringValue
        guard let output, !output.isEmpty, output.utf8.count <= 64 else { return }
        snapshot.soundOutput = output
    }

    static func isGoingOff(_ processing: String) -> Bool {
        let lower = processing.lowercased()
        return lower.contains("power off") || lower.contains("suspend") || lower.contains("standby")
    }

    /// `getVolume` / `getStatus`: `volume` and `muted` (or `mute`), or webOS 5+'s `volumeStatus`.
    static func volume(_ payload: JSONValue, into snapshot: inout TVSnapshot) {
        let status = payload["volumeStatus"] ?? payload
        if let volume = status["volume"]?.intValue, (0...100).contains(volume) { snapshot.volume = volume }
        if let muted = status["muteStatus"]?.boolValue ?? status["muted"]?.boolValue ?? status["mute"]?.boolValue {
            snapshot.muted = muted
        }
    }

    /// `getForegroundAppInfo`: the app in front, by the list's names; an input's app names the input.
    static func foreground(
        _ payload: JSONValue, apps: [TVApp], inputs: [LGInput], into snapshot: inout TVSnapshot
    ) {
        guard let appID = payload["appId"]?.stringValue else { return }
        snapshot.appID = appID.isEmpty ? nil : appID
        snapshot.app = apps.first { $0.id == appID }?.name ?? (appID.isEmpty ? nil : appID)
        snapshot.input = inputs.first { $0.appID == appID }?.label
        if appID != liveTVApp { snapshot.clearChannel() }
    }

    static let liveTVApp = "com.webos.app.livetv"

    /// `getCurrentChannel`.
    static func channel(_ payload: JSONValue, into snapshot: inout TVSnapshot) {
        guard let number = payload["channelNumber"]?.stringValue else { return }
        let name = payload["channelName"]?.stringValue ?? ""
        snapshot.channelNumber = number
        snapshot.channelName = name.isEmpty ? nil : name
        snapshot.channel = LGChannel(id: "", number: number, name: name).label
    }

    static func apps(_ payload: JSONValue) -> [TVApp]? {
        payload["launchPoints"]?.arrayValue?.compactMap { point in
            guard let id = point["id"]?.stringValue, !id.isEmpty else { return nil }
            return TVApp(id: id, name: point["title"]?.stringValue ?? id)
        }
    }

    /// Each app's icon path (`icon`, else `largeIcon`), kept only when its URL names the TV's
    /// own host: icons are then read from there, never from a host the list names.
    static func iconPaths(_ payload: JSONValue, host: String) -> [String: String] {
        var paths: [String: String] = [:]
        for point in payload["launchPoints"]?.arrayValue ?? [] {
            guard let id = point["id"]?.stringValue,
                let url = point["icon"]?.stringValue ?? point["largeIcon"]?.stringValue,
                let path = iconPath(url, host: host)
            else { continue }
            paths[id] = path
        }
        return paths
    }

    static func iconPath(_ url: String, host: String) -> String? {
        guard let parts = try? URLParts(parsing: url), parts.host.lowercased() == host.lowercased(),
            parts.scheme == "http" || parts.scheme == "https", parts.path.hasPrefix("/"), parts.path.utf8.count <= 512
        else { return nil }
        return parts.path
    }

    static func inputs(_ payload: JSONValue) -> [LGInput]? {
        payload["devices"]?.arrayValue?.compactMap { device in
            guard let id = device["id"]?.stringValue, !id.isEmpty else { return nil }
            return LGInput(id: id, label: device["label"]?.stringValue ?? id, appID: device["appId"]?.stringValue)
        }
    }

    static func channels(_ payload: JSONValue) -> [LGChannel]? {
        payload["channelList"]?.arrayValue?.compactMap { channel in
            guard let id = channel["channelId"]?.stringValue, let number = channel["channelNumber"]?.stringValue
            else { return nil }
            return LGChannel(id: id, number: number, name: channel["channelName"]?.stringValue ?? "")
        }
    }

    /// `connectionmanager/getinfo`: the wired and Wi-Fi MACs, lowercase.
    static func macs(_ payload: JSONValue) -> [String] {
        ["wiredInfo", "wifiInfo"].compactMap { payload[$0]?["macAddress"]?.stringValue?.lowercased() }
            .filter { MACAddress($0) != nil }
    }
}
