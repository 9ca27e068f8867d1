import MQTTInterface
import TVModel

extension EntityTable {
    private typealias Field = StateDocument.Field

    /// Live TV and capability rows of SPEC §10 (Roku): the `channel` select (options "7.1 KQED",
    /// only once the tuner has channels), the `current_channel` and `media_title` sensors on
    /// TVs with a tuner (the same pair as the `app` select and `current_app` sensor), the
    /// `find_remote` button where the Roku supports it, and the diagnostic `ecp_setting_mode`.
    /// The channel rows need `channelInfo` (a Roku TV's tuner), not `channels`: a Samsung has
    /// channel keys but reports no channel. `ecp_setting_mode` goes with `limitedMode` (Rokus).
    static let liveTV: [EntityDescription] = [
        EntityDescription(
            key: "channel", platform: .select, name: "Channel", icon: "mdi:television-classic", stateTopic: .tvState,
            reading: .option(Field.channel.rawValue, .channels), command: .tvSet("channel"),
            applies: { capabilities, _ in capabilities.channelInfo && !capabilities.channelList.isEmpty }),
        EntityDescription(
            key: "current_channel", platform: .sensor, name: "Current channel", icon: "mdi:television-classic",
            stateTopic: .tvState, reading: .text(Field.channel.rawValue),
            applies: { capabilities, _ in capabilities.channelInfo }),
        EntityDescription(
            key: "media_title", platform: .sensor, name: "Program", icon: "mdi:television-guide",
            stateTopic: .tvState, reading: .text(Field.mediaTitle.rawValue),
            applies: { capabilities, _ in capabilities.channelInfo }),
        EntityDescription(
            key: "find_remote", platform: .button, name: "Find remote", icon: "mdi:remote",
            command: .tvSet("key"), payloadPress: "FindRemote",
            applies: { capabilities, _ in capabilities.findRemote }),
        EntityDescription(
            key: "ecp_setting_mode", platform: .sensor, name: "Control by mobile apps", icon: "mdi:cellphone-link",
            category: .diagnostic, stateTopic: .tvState, reading: .text(Field.ecpSettingMode.rawValue),
            applies: { capabilities, _ in capabilities.limitedMode }),
    ]
}
