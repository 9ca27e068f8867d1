import TVModel

/// `GET /query/tv-active-channel`: the channel a Roku TV's tuner shows and the program on air
/// (`<tv-channel><channel><number>14.3</number><name>getTV</name>…<program-title>Airwolf</program-title>`).
///
/// Asked only while the active app is the tuner (`tvinput.dtv`). A `<tv-channel>` without a
/// `<channel>`, or a channel without a number (the tuner is still searching), is "no channel":
/// every field nil, never an error.
public struct RokuActiveChannel: Equatable, Sendable {
    /// The tuner's app id: the only foreground where a channel is asked for.
    public static let tunerAppID = "tvinput.dtv"

    public var channel: RokuTVChannel?
    public var programTitle: String?
    public var programDescription: String?

    public init(channel: RokuTVChannel?, programTitle: String? = nil, programDescription: String? = nil) {
        self.channel = channel
        self.programTitle = programTitle
        self.programDescription = programDescription
    }

    public static func parse(_ bytes: [UInt8]) throws(DriverError) -> RokuActiveChannel {
        let root = try RokuXML.root(bytes, named: "tv-channel", what: "active channel")
        guard let element = root.firstChild(named: "channel"), let channel = RokuTVChannel(element) else {
            return RokuActiveChannel(channel: nil)
        }
        return RokuActiveChannel(
            channel: channel,
            programTitle: RokuXML.nonEmpty(element.childText("program-title")),
            programDescription: RokuXML.nonEmpty(element.childText("program-description")))
    }

    /// Writes the channel into `snapshot`; the label is the channel list's own when the number
    /// is on it, so the `channel` select's state is always one of its options.
    public func apply(to snapshot: inout TVSnapshot, list: [RokuTVChannel]) {
        snapshot.clearChannel()
        guard let channel else { return }
        snapshot.channelNumber = channel.number
        snapshot.channelName = channel.name
        snapshot.channel = (list.first { $0.number == channel.number } ?? channel).label
        snapshot.mediaTitle = programTitle
        snapshot.mediaDescription = programDescription
    }
}
