import MQTTInterface
import Support
import TVModel
import Wire

/// The entities (README › Home Assistant setup), one row each.
///
/// TV entities read fields of the state document (README › MQTT topics and commands), named by
/// `StateDocument.Field` and so by no other list. `connected` reads `<base>/<tv>/availability`. The
/// bridge's entities read `version` and `log_level` from `<base>/bridge/info`, and
/// `<base>/bridge/state`.
public enum EntityTable {
    private typealias Field = StateDocument.Field

    /// `media_state` values, the options of the enum sensor.
    public static let mediaStates: [String] = MediaState.allCases.map(\.rawValue)

    /// The levels `log_level` accepts (README › Command line, `--log-level`), the options of the
    /// bridge's select.
    public static let logLevels: [String] = LogLevel.allCases.map(\.name)

    /// The `content_type` of the `app_icon` image entity. Home Assistant takes one type per
    /// entity, not per picture; only PNG and JPEG icons are published (`AppIcon.publishedTypes`)
    /// and browsers show either whatever the header says (they sniff image types), so the
    /// entity names the common one.
    public static let appIconContentType = "image/png"

    /// Per TV, in the order Home Assistant lists them.
    public static let tv: [EntityDescription] =
        [
            EntityDescription(
                key: "power", platform: .switch, name: nil, icon: "mdi:power", stateTopic: .tvState,
                reading: .option(Field.power.rawValue, .fixed(["ON", "OFF"])), command: .tvSet(.power),
                availability: .bridgeOnly,
                applies: { capabilities, _ in capabilities.power }),
            EntityDescription(
                key: "app", platform: .select, name: "App", icon: "mdi:apps", stateTopic: .tvState,
                reading: .option(Field.app.rawValue, .apps), command: .tvSet(.app),
                applies: { capabilities, _ in !capabilities.apps.isEmpty }),
            EntityDescription(
                key: "input", platform: .select, name: "Input", icon: "mdi:video-input-hdmi", stateTopic: .tvState,
                reading: .option(Field.input.rawValue, .inputs), command: .tvSet(.input),
                applies: { capabilities, _ in !capabilities.inputs.isEmpty }),
            EntityDescription(
                key: "volume", platform: .number, name: "Volume", icon: "mdi:volume-high", stateTopic: .tvState,
                reading: .number(Field.volume.rawValue), command: .tvSet(.volume),
                extra: [
                    "min": .integer(Int64(TVCommand.volumeRange.lowerBound)),
                    "max": .integer(Int64(TVCommand.volumeRange.upperBound)), "step": 1, "mode": "slider",
                    "unit_of_measurement": "%",
                ],
                applies: { capabilities, _ in capabilities.volumeLevel }),
            EntityDescription(
                key: "mute", platform: .switch, name: "Mute", icon: "mdi:volume-off", stateTopic: .tvState,
                reading: .onOff(Field.muted.rawValue), command: .tvSet(.mute),
                applies: { capabilities, _ in capabilities.muteState }),
            .button("volume_up", "Volume up", icon: "mdi:volume-plus", key: .volumeUp, applies: hasVolumeKeys),
            .button("volume_down", "Volume down", icon: "mdi:volume-minus", key: .volumeDown, applies: hasVolumeKeys),
            .button("mute_toggle", "Mute toggle", icon: "mdi:volume-mute", key: .mute, applies: hasVolumeKeys),
            .button("home", "Home", icon: "mdi:home", key: .home),
            .button("back", "Back", icon: "mdi:arrow-left", key: .back),
            .button("up", "Up", icon: "mdi:chevron-up", key: .up),
            .button("down", "Down", icon: "mdi:chevron-down", key: .down),
            .button("left", "Left", icon: "mdi:chevron-left", key: .left),
            .button("right", "Right", icon: "mdi:chevron-right", key: .right),
            .button("select", "Select", icon: "mdi:checkbox-blank-circle-outline", key: .select),
            .button("play_pause", "Play/pause", icon: "mdi:play-pause", key: .playPause),
            .button("info", "Info", icon: "mdi:information-outline", key: .info, enabled: false),
            .button("rewind", "Rewind", icon: "mdi:rewind", key: .rewind, enabled: false),
            .button("fast_forward", "Fast forward", icon: "mdi:fast-forward", key: .fastForward, enabled: false),
            .button("replay", "Replay", icon: "mdi:replay", key: .replay, enabled: false),
            .button(
                "channel_up", "Channel up", icon: "mdi:chevron-double-up", key: .channelUp, enabled: false,
                applies: { capabilities, _ in capabilities.channels }),
            .button(
                "channel_down", "Channel down", icon: "mdi:chevron-double-down", key: .channelDown, enabled: false,
                applies: { capabilities, _ in capabilities.channels }),
            .button("search", "Search", icon: "mdi:magnify", key: .search, enabled: false),
            EntityDescription(
                key: "keyboard", platform: .text, name: "Keyboard", icon: "mdi:keyboard", stateTopic: .tvState,
                reading: .cleared, command: .tvSet(.text), extra: ["max": .integer(Int64(TVCommand.maxTextLength))],
                applies: { capabilities, _ in capabilities.keyboard }),
            EntityDescription(
                key: "media_state", platform: .sensor, name: "Media state", icon: "mdi:play-circle-outline",
                deviceClass: "enum", stateTopic: .tvState,
                reading: .option(Field.mediaState.rawValue, .fixed(mediaStates)),
                applies: { capabilities, _ in capabilities.mediaState }),
            EntityDescription(
                key: "current_app", platform: .sensor, name: "Current app", icon: "mdi:application",
                stateTopic: .tvState, reading: .text(Field.app.rawValue)),
            EntityDescription(
                key: "app_icon", platform: .image, name: "App icon", icon: "mdi:image", stateTopic: .tvAppIcon,
                extra: ["content_type": .string(appIconContentType)],
                applies: { capabilities, _ in capabilities.appIcons }),
            EntityDescription(
                key: "power_mode", platform: .sensor, name: "Power mode", icon: "mdi:power-settings",
                category: .diagnostic, stateTopic: .tvState, reading: .text(Field.powerMode.rawValue)),
            EntityDescription(
                key: "connected", platform: .binarySensor, name: "Connected", category: .diagnostic,
                deviceClass: "connectivity", stateTopic: .tvAvailability,
                reading: .payload(on: "online", off: "offline"), availability: .bridgeOnly),
            EntityDescription(
                key: "limited_mode", platform: .binarySensor, name: "Limited mode", category: .diagnostic,
                deviceClass: "problem", stateTopic: .tvState, reading: .onOff(Field.limitedMode.rawValue),
                applies: { capabilities, _ in capabilities.limitedMode }),
            // Bridge-only availability: `turn_on_requested` comes exactly while the TV is offline.
            EntityDescription(
                key: "event", platform: .event, name: "Event", icon: "mdi:bell-ring-outline", stateTopic: .tvEvent,
                availability: .bridgeOnly,
                extra: ["event_types": .array(TVEventType.allCases.map { .string($0.rawValue) })]),
            EntityDescription(
                key: "screen", platform: .switch, name: "Screen", icon: "mdi:monitor", stateTopic: .tvState,
                reading: .option(Field.screen.rawValue, .fixed(["ON", "OFF"])), command: .tvSet(.screen),
                applies: { capabilities, _ in capabilities.screenControl }),
            EntityDescription(
                key: "sound_output", platform: .select, name: "Sound output", icon: "mdi:speaker",
                stateTopic: .tvState, reading: .option(Field.soundOutput.rawValue, .soundOutputs),
                command: .tvSet(.soundOutput), applies: { capabilities, _ in !capabilities.soundOutputs.isEmpty }),
            // Home Assistant sends the message as the payload: the `toast` command's plain form.
            EntityDescription(
                key: "toast", platform: .notify, name: "Toast", icon: "mdi:message-text", command: .tvSet(.toast),
                applies: { capabilities, _ in capabilities.toast }),
            EntityDescription(
                key: "pair", platform: .button, name: "Pair", icon: "mdi:link-variant", category: .config,
                command: .bridgeRequestForTV(BridgeRequest.tvPair.rawValue), availability: .bridgeOnly,
                applies: { capabilities, _ in capabilities.pairing }),
            // What is typed is sent as the code the TV shows: `tv/pair` with `pin`.
            EntityDescription(
                key: "pairing_code", platform: .text, name: "Pairing code", icon: "mdi:dialpad", category: .config,
                command: .bridgeRequestForTV(BridgeRequest.tvPair.rawValue), availability: .bridgeOnly,
                extra: ["max": 16], applies: { capabilities, _ in capabilities.pairingPIN }),
        ] + liveTV

    /// The bridge device's entities.
    public static let bridge: [EntityDescription] = [
        EntityDescription(
            key: "connection_state", platform: .binarySensor, name: "Connection state", category: .diagnostic,
            deviceClass: "connectivity", stateTopic: .bridgeState, reading: .payload(on: "online", off: "offline"),
            availability: .none),
        EntityDescription(
            key: "version", platform: .sensor, name: "Version", icon: "mdi:information-outline",
            category: .diagnostic, stateTopic: .bridgeInfo, reading: .text(BridgeInfo.Field.version.rawValue),
            availability: .bridgeOnly),
        EntityDescription(
            key: "discover", platform: .button, name: "Discover TVs", icon: "mdi:magnify-scan", category: .config,
            command: .bridgeRequest(BridgeRequest.discover.rawValue), payloadPress: "{}", availability: .bridgeOnly),
        EntityDescription(
            key: "log_level", platform: .select, name: "Log level", icon: "mdi:format-list-bulleted",
            category: .config, stateTopic: .bridgeInfo,
            reading: .option(BridgeInfo.Field.logLevel.rawValue, .fixed(logLevels)),
            command: .bridgeRequest(BridgeRequest.logLevel.rawValue), availability: .bridgeOnly),
        // Adding a TV from the UI: the text remembers the address, the button adds it.
        // No state topic: Home Assistant keeps what was typed (an optimistic text).
        EntityDescription(
            key: "add_tv_host", platform: .text, name: "TV to add", icon: "mdi:ip-network", category: .config,
            command: .bridgeRequest(BridgeRequest.tvAddHost.rawValue), availability: .bridgeOnly,
            extra: ["max": 255]),
        EntityDescription(
            key: "add_tv", platform: .button, name: "Add TV", icon: "mdi:television-shimmer", category: .config,
            command: .bridgeRequest(BridgeRequest.tvAdd.rawValue), payloadPress: "{}", availability: .bridgeOnly),
    ]

    /// The rows a TV gets.
    public static func entities(for capabilities: TVCapabilities, kind: TVKind) -> [EntityDescription] {
        tv.filter { $0.applies(capabilities, kind) }
    }

    private static let hasVolumeKeys: @Sendable (TVCapabilities, TVKind) -> Bool = { capabilities, _ in
        capabilities.volumeKeys
    }
}
