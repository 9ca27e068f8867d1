import Wire

/// The URIs that only read, answered alike to a request and a subscription (whose pushes are
/// these payloads again on every change). Field names as aiowebostv and lgtv2 read them.
extension LGSimulator {
    /// The reading of `path` ("audio/getVolume") in `state`; nil when `path` is not a reading.
    func read(_ path: String, _ state: LGSimState, secure: Bool) -> Result<[String: JSONValue], Failure>? {
        switch path {
        case "com.webos.service.tvpower/power/getPowerState":
            var payload: [String: JSONValue] = ["state": .string(state.power.rawValue)]
            if let processing = state.processing { payload["processing"] = .string(processing) }
            return .success(payload)
        case "com.webos.applicationManager/getForegroundAppInfo":
            return .success(["appId": .string(state.appID), "windowId": "", "processId": ""])
        case "com.webos.media/getForegroundAppInfo":
            guard let media = state.mediaState else { return .success(["foregroundAppInfo": []]) }
            let playState = media == "play" ? "playing" : media == "pause" ? "paused" : "stopped"
            return .success([
                "foregroundAppInfo": [
                    ["appId": .string(state.appID), "playState": .string(playState), "type": "media"]
                ]
            ])
        case "com.webos.applicationManager/listLaunchPoints":
            return .success(["launchPoints": .array(LGCatalog.apps.map { launchPoint($0, secure: secure) })])
        case "com.webos.applicationManager/listApps":
            return .success(["apps": .array(LGCatalog.apps.map { launchPoint($0, secure: secure) })])
        case "tv/getExternalInputList":
            return .success(["devices": .array(LGCatalog.inputs.map { inputDevice($0, secure: secure) })])
        case "tv/getChannelList":
            return .success([
                "channelList": .array(LGCatalog.channels.map(Self.channelEntry)),
                "channelListCount": .integer(Int64(LGCatalog.channels.count)),
            ])
        case "tv/getCurrentChannel":
            guard state.appID == LGCatalog.liveTV, let channel = state.channel else {
                return .failure(.refused("not watching Live TV"))
            }
            return .success(Self.currentChannel(channel))
        case "tv/getChannelProgramInfo":
            guard state.appID == LGCatalog.liveTV, let channel = state.channel else {
                return .failure(.refused("not watching Live TV"))
            }
            return .success(["channel": .object(Self.currentChannel(channel)), "programList": []])
        case "audio/getVolume":
            return .success(volume(state, form: options.volumeForm))
        case "audio/getStatus":
            var payload: [String: JSONValue] = ["volume": .integer(Int64(state.volume)), "mute": .bool(state.muted)]
            if options.volumeForm == .nested { payload["volumeStatus"] = volume(state, form: .nested)["volumeStatus"] }
            return .success(payload)
        case "com.webos.service.apiadapter/audio/getSoundOutput":
            return .success(["soundOutput": .string(state.soundOutput)])
        case "com.webos.service.connectionmanager/getinfo":
            return .success(LGDocuments.connectionInfo(identity, host: options.host))
        case "system/getSystemInfo":
            return .success(LGDocuments.systemInfo(identity))
        case "com.webos.service.update/getCurrentSWInformation":
            return .success(LGDocuments.softwareInfo(identity))
        case "api/getServiceList":
            let services = ["api", "audio", "media.controls", "system", "system.launcher", "tv", "webapp"]
            return .success(["services": .array(services.map { ["name": .string($0), "version": 1] })])
        default:
            return nil
        }
    }

    private func volume(_ state: LGSimState, form: LGVolumeForm) -> [String: JSONValue] {
        let volume = JSONValue.integer(Int64(state.volume))
        switch form {
        case .flat:
            return [
                "volume": volume, "muted": .bool(state.muted), "scenario": "mastervolume_tv_speaker",
                "volumeMax": 100,
            ]
        case .nested:
            return [
                "callerId": "secondscreen.client",
                "volumeStatus": [
                    "volume": volume, "muteStatus": .bool(state.muted), "maxVolume": 100,
                    "soundOutput": .string(state.soundOutput), "mode": "normal", "activeStatus": true,
                    "adjustVolume": true,
                ],
            ]
        }
    }

    private func launchPoint(_ app: LGCatalog.App, secure: Bool) -> JSONValue {
        let icon = JSONValue.string(iconURL(app.id, secure: secure))
        return [
            "id": .string(app.id), "title": .string(app.title), "icon": icon, "largeIcon": icon,
            "launchPointId": .string(app.id + "_default"),
        ]
    }

    private func inputDevice(_ input: LGCatalog.Input, secure: Bool) -> JSONValue {
        [
            "id": .string(input.id), "label": .string(input.label), "port": .integer(Int64(input.port)),
            "appId": .string(input.appID), "icon": .string(iconURL(input.appID, secure: secure)),
            "connected": true, "favorite": false,
        ]
    }

    private static func channelEntry(_ channel: LGCatalog.Channel) -> JSONValue {
        [
            "channelId": .string(channel.id), "channelNumber": .string(channel.number),
            "channelName": .string(channel.name), "channelType": "Terrestrial Digital TV", "channelMode": "Terrestrial",
        ]
    }

    private static func currentChannel(_ channel: LGCatalog.Channel) -> [String: JSONValue] {
        [
            "channelId": .string(channel.id), "channelNumber": .string(channel.number),
            "channelName": .string(channel.name), "channelTypeName": "Terrestrial Digital TV",
            "channelModeName": "Terrestrial",
        ]
    }
}
