import TVModel
import Wire

extension StateDocument {
    /// The live-TV and live-stream fields (Roku/README.md › Live TV, channels and live streams):
    /// each capped like every vendor string.
    static func setLiveTV(_ snapshot: TVSnapshot, _ set: (Field, JSONValue?) -> Void) {
        set(.channel, snapshot.channel.map { .string(capped($0)) })
        set(.channelNumber, snapshot.channelNumber.map { .string(capped($0)) })
        set(.channelName, snapshot.channelName.map { .string(capped($0)) })
        set(.mediaTitle, snapshot.mediaTitle.map { .string(capped($0)) })
        set(.mediaDescription, snapshot.mediaDescription.map { .string(capped($0)) })
        set(.live, snapshot.live.map { .bool($0) })
    }

    /// The values of the driver's sensors and controls, each under its key, capped like the rest.
    static func setDeclared(_ snapshot: TVSnapshot, into members: inout [String: JSONValue]) {
        for (key, value) in snapshot.declared where acceptsDeclared(key) {
            members[key] = .string(capped(value))
        }
    }
}
