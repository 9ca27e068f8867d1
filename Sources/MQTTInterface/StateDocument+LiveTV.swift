import TVModel
import Wire

extension StateDocument {
    /// The live-TV and live-stream fields (SPEC §10): each capped like every vendor string.
    static func setLiveTV(_ snapshot: TVSnapshot, _ set: (Field, JSONValue?) -> Void) {
        set(.channel, snapshot.channel.map { .string(capped($0)) })
        set(.channelNumber, snapshot.channelNumber.map { .string(capped($0)) })
        set(.channelName, snapshot.channelName.map { .string(capped($0)) })
        set(.mediaTitle, snapshot.mediaTitle.map { .string(capped($0)) })
        set(.mediaDescription, snapshot.mediaDescription.map { .string(capped($0)) })
        set(.live, snapshot.live.map { .bool($0) })
    }

    /// The driver's diagnostic readings, each under its sensor's key, capped like the rest.
    static func setDiagnostics(_ snapshot: TVSnapshot, into members: inout [String: JSONValue]) {
        for (key, value) in snapshot.diagnostics where acceptsDiagnostic(key) {
            members[key] = .string(capped(value))
        }
    }
}
