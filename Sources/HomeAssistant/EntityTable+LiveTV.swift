import MQTTInterface
import TVModel

extension EntityTable {
    private typealias Field = StateDocument.Field

    /// Live TV and capability rows (Sources/Drivers/Roku/README.md › Live TV): the `channel` select
    /// (options "7.1 KQED", only once the tuner has channels), the `current_channel` and
    /// `media_title` sensors on TVs with a tuner (the same pair as the `app` select and
    /// `current_app` sensor), and the `find_remote` button where the driver names the key that
    /// makes the remote beep. The channel rows need `channelInfo` (a tuner that reports its
    /// channel), not `channels`: a TV can have channel keys and report no channel. A driver's own
    /// diagnostic sensors are rows made from its capabilities (`EntityTable+Declared.swift`).
    static let liveTV: [EntityDescription] = [
        EntityDescription(
            key: "channel", platform: .select, name: "Channel", icon: "mdi:television-classic", stateTopic: .tvState,
            reading: .option(Field.channel.rawValue, .channels), command: .tvSet(.channel),
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
            command: .tvSet(.key), pressFromCapabilities: { $0.findRemoteKey },
            applies: { capabilities, _ in capabilities.findRemoteKey != nil }),
    ]
}
