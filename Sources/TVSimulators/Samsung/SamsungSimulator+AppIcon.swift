import Wire

/// `ed.apps.icon` (samsungtvws `App.icon`): the picture at an installed app's `icon` path, as
/// base64 in `data.imageBase64`, beside the `iconPath` asked for; logged as `app_icon`. A path
/// of no installed app gets the reply without a picture.
extension SamsungSimulator {
    func appIcon(_ path: String) -> JSONValue {
        let known = SamsungCatalog.apps.contains { SamsungRemoteEvents.iconPath($0.id) == path }
        record("app_icon", ["path": .string(String(path.prefix(200))), "known": .bool(known)])
        var data: [String: JSONValue] = ["iconPath": .string(path)]
        if known { data["imageBase64"] = .string(Base64.encode(RokuSimulator.pngIcon)) }
        return ["data": .object(data), "event": "ed.apps.icon", "from": "host"]
    }
}
