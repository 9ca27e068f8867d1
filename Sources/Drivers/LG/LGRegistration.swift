import Wire

/// The `register` message: the manifest of the permissions tv2mqtt asks for (the prompt lists
/// them), the same set aiowebostv and LGWebOSRemote send, so TVs answer it as they answer those.
enum LGRegistration {
    static let id = "register_0"

    static let permissions: [String] = [
        "LAUNCH", "LAUNCH_WEBAPP", "APP_TO_APP", "CLOSE", "TEST_OPEN", "TEST_PROTECTED", "CONTROL_AUDIO",
        "CONTROL_DISPLAY", "CONTROL_INPUT_JOYSTICK", "CONTROL_INPUT_MEDIA_RECORDING",
        "CONTROL_INPUT_MEDIA_PLAYBACK", "CONTROL_INPUT_TV", "CONTROL_POWER", "READ_APP_STATUS",
        "READ_CURRENT_CHANNEL", "READ_INPUT_DEVICE_LIST", "READ_NETWORK_STATE", "READ_RUNNING_APPS",
        "READ_TV_CHANNEL_LIST", "WRITE_NOTIFICATION_TOAST", "READ_POWER_STATE", "READ_COUNTRY_INFO",
        "READ_SETTINGS", "CONTROL_TV_SCREEN", "CONTROL_TV_STANBY", "CONTROL_FAVORITE_GROUP",
        "CONTROL_USER_INFO", "CHECK_BLUETOOTH_DEVICE", "CONTROL_BLUETOOTH", "CONTROL_TIMER_INFO",
        "STB_INTERNAL_CONNECTION", "CONTROL_RECORDING", "READ_RECORDING_STATE", "WRITE_RECORDING_LIST",
        "READ_RECORDING_LIST", "READ_RECORDING_SCHEDULE", "WRITE_RECORDING_SCHEDULE", "READ_STORAGE_DEVICE_LIST",
        "READ_TV_PROGRAM_INFO", "CONTROL_BOX_CHANNEL", "READ_TV_ACR_AUTH_TOKEN", "READ_TV_CONTENT_STATE",
        "READ_TV_CURRENT_TIME", "ADD_LAUNCHER_CHANNEL", "SET_CHANNEL_SKIP", "RELEASE_CHANNEL_SKIP",
        "CONTROL_CHANNEL_BLOCK", "DELETE_SELECT_CHANNEL", "CONTROL_CHANNEL_GROUP", "SCAN_TV_CHANNELS",
        "CONTROL_TV_POWER", "CONTROL_WOL",
    ]

    /// `byPIN`: ask for the PIN screen rather than the prompt.
    static func message(clientKey: String?, byPIN: Bool = false) -> String {
        var payload: [String: JSONValue] = [
            "forcePairing": false, "pairingType": .string(byPIN ? "PIN" : "PROMPT"),
            "manifest": [
                "manifestVersion": 1, "appVersion": "1.1",
                "signed": [
                    "appId": "com.tv2mqtt.bridge", "vendorId": "com.tv2mqtt", "created": "20261127",
                    "localizedAppNames": ["": "tv2mqtt"], "localizedVendorNames": ["": "tv2mqtt"],
                    "permissions": .array(permissions.map(JSONValue.string)), "serial": "tv2mqtt",
                ],
                "permissions": .array(permissions.map(JSONValue.string)),
            ],
        ]
        if let clientKey { payload["client-key"] = .string(clientKey) }
        return LGMessage.encode(type: "register", id: id, payload: .object(payload))
    }

    /// A key as TVs issue them (32 hex digits; up to 128 printable ASCII characters accepted),
    /// so a host posing as a TV cannot make us store anything.
    static func isPlausibleKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= 128
            && key.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }
    }
}
