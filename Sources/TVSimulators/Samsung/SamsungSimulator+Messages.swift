import Wire

/// What the remote channel's messages do: `ms.remote.control` (keys, text) and
/// `ms.channel.emit` (installed apps, app launch). Anything malformed is ignored or answered
/// with `ms.error`, never trusted.
extension SamsungSimulator {
    /// Handles one text frame; returns the events to send back, in order.
    func handleRemoteMessage(_ text: String, client: inout RemoteClient) -> [JSONValue] {
        guard let message = try? JSONParser.parse(text, limits: JSONLimits(maxDepth: 16, maxBytes: 256 * 1024)),
            let method = message["method"]?.stringValue
        else {
            return [SamsungRemoteEvents.error("unable to parse the message")]
        }
        let params = message["params"]
        switch method {
        case "ms.remote.control":
            return remoteControl(params, client: &client)
        case "ms.channel.emit":
            return emit(params)
        default:
            return [SamsungRemoteEvents.error("unrecognized method value : \(method.prefix(100))")]
        }
    }

    private func remoteControl(_ params: JSONValue?, client: inout RemoteClient) -> [JSONValue] {
        switch params?["TypeOfRemote"]?.stringValue {
        case "SendRemoteKey":
            guard let key = params?["DataOfCmd"]?.stringValue, let command = params?["Cmd"]?.stringValue,
                ["Click", "Press", "Release"].contains(command)
            else { return [] }  // a real TV drops a malformed key silently
            remoteKey(String(key.prefix(64)), command: command, client: &client)
            return []
        case "SendInputString":
            let encoded = params?["Cmd"]?.stringValue ?? ""
            guard let bytes = try? Base64.decode(encoded), let typed = String(validating: bytes, as: UTF8.self)
            else {
                record("text", ["refused": "not base64 of UTF-8"])
                return []
            }
            core.withLock { core in
                record("text", ["text": .string(typed)])
                if core.state.power == .on { core.state.text += typed }
            }
            return []
        case "SendInputEnd":
            record("text_end", [:])
            return []
        default:
            return []  // mouse moves, touch events…: not simulated, and harmless
        }
    }

    private func emit(_ params: JSONValue?) -> [JSONValue] {
        switch params?["event"]?.stringValue {
        case "ed.apps.icon":
            return [appIcon(params?["data"]?["iconPath"]?.stringValue ?? "")]
        case "ed.installedApp.get":
            // Newer firmware never answers: the client has to time out.
            return options.apps ? [SamsungRemoteEvents.installedApps(SamsungCatalog.apps)] : []
        case "ed.apps.launch":
            let id = params?["data"]?["appId"]?.stringValue ?? ""
            let type = params?["data"]?["action_type"]?.stringValue
            var fields: [String: JSONValue] = ["app": .string(String(id.prefix(128))), "via": "websocket"]
            if let type { fields["action_type"] = .string(String(type.prefix(32))) }
            return core.withLock { core -> [JSONValue] in
                guard let app = SamsungCatalog.app(id) else {
                    fields["refused"] = "not installed"
                    record("app_launch", fields)
                    return [SamsungRemoteEvents.launched(404)]
                }
                guard core.state.power == .on else {
                    fields["refused"] = "standby"
                    record("app_launch", fields)
                    return [SamsungRemoteEvents.error("the TV is in standby")]
                }
                fields["name"] = .string(app.name)
                record("app_launch", fields)
                launch(app, &core)
                return [SamsungRemoteEvents.launched(200)]
            }
        default:
            return []  // custom.remote.textReceived, art requests…: accepted, no answer
        }
    }
}
