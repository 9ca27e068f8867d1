import Wire

/// The tuner of a simulated Roku TV: a channel list (`/query/tv-channels`), the channel on
/// screen with its program (`/query/tv-active-channel`), tuning with
/// `launch/tvinput.dtv?ch=<number>` (logged as kind `channel`), and `/sim/state`'s
/// `channel` field. Shaped like Roku's documented answers (Tests/Fixtures/roku/README.md).
public enum RokuTuner {
    public struct Channel: Sendable, Equatable {
        public let number: String
        public let name: String
        public let program: String
        public let programDescription: String
    }

    /// The tuner app's id.
    public static let appID = "tvinput.dtv"

    /// Channels as a US antenna scan finds them (the first is where the tuner starts).
    public static let channels: [Channel] = [
        Channel(
            number: "2.1", name: "KTVU", program: "Mornings on 2",
            programDescription: "Local news, traffic and weather."),
        Channel(
            number: "7.1", name: "KQED", program: "PBS NewsHour",
            programDescription: "News and analysis of the day's events."),
        Channel(
            number: "7.2", name: "KQED+", program: "Nature",
            programDescription: "Wildlife of the Pacific coast."),
        Channel(
            number: "14.3", name: "getTV", program: "Airwolf",
            programDescription: "The team will travel all around the world in order to shut down a global crime ring."),
    ]

    public static func channel(_ number: String) -> Channel? { channels.first { $0.number == number } }

    /// Queries that Roku OS 14.1+ answers only with "Control by mobile apps" set to Enabled.
    static let limitedQueries: Set<String> = ["media-player", "tv-channels", "tv-active-channel"]

    /// `GET /query/tv-channels`.
    static func channelList() -> String {
        var out = RokuDocuments.prolog + "<tv-channels>\n"
        for channel in channels {
            out += "    <channel>\n"
            out += "        <number>\(XMLEscaping.escapeText(channel.number))</number>\n"
            out += "        <name>\(XMLEscaping.escapeText(channel.name))</name>\n"
            out += "        <type>air-digital</type>\n"
            out += "        <user-hidden>false</user-hidden>\n"
            out += "    </channel>\n"
        }
        return out + "</tv-channels>\n"
    }

    /// `GET /query/tv-active-channel`: the channel with its program while the tuner shows,
    /// an empty `<tv-channel/>` otherwise.
    static func activeChannel(_ state: RokuSimState) -> String {
        guard state.power == .on, state.appID == appID, let channel = channel(state.channel) else {
            return RokuDocuments.prolog + "<tv-channel/>\n"
        }
        func element(_ name: String, _ value: String) -> String {
            "    <\(name)>\(XMLEscaping.escapeText(value))</\(name)>\n"
        }
        return RokuDocuments.prolog + "<tv-channel>\n  <channel>\n" + element("number", channel.number)
            + element("name", channel.name) + element("type", "air-digital") + element("user-hidden", "false")
            + element("active-input", "true") + element("signal-state", "valid") + element("signal-mode", "1080i")
            + element("signal-quality", "80") + element("signal-strength", "-52")
            + element("program-title", channel.program) + element("program-description", channel.programDescription)
            + element("program-ratings", "TV-PG") + element("program-has-cc", "true") + "  </channel>\n</tv-channel>\n"
    }
}

extension RokuSimulator {
    /// `launch/tvinput.dtv?ch=<number>`: a known channel switches to the tuner on that
    /// channel; an unknown one is refused 400 (and logged `refused`). Works in Limited mode,
    /// like every launch.
    func tune(_ number: String, viaECP2: Bool) -> HTTPResponse {
        var fields: [String: JSONValue] = ["channel": .string(number)]
        if viaECP2 { fields["via"] = "ecp-2" }
        return core.withLock { core in
            defer { announceLocked(&core) }
            guard kind == .tv, RokuTuner.channel(number) != nil else {
                fields["refused"] = "unknown channel"
                record("channel", fields)
                return SimResponse.plain(400, "Unknown channel: \(number)")
            }
            record("channel", fields)
            if core.state.power != .on { core.state.power = .on }
            switchApp(RokuTuner.appID, &core)
            core.state.channel = number
            core.restartClock()
            return HTTPResponse(status: 200)
        }
    }

    /// `/sim/state`'s tuner fields, checked before anything is applied: `channel` (a number of
    /// the list, TVs only) and `live` (the media playing is a live stream).
    struct TunerChange {
        var channel: String?
        var live: Bool?

        init(_ fields: [String: JSONValue], kind: RokuDeviceKind) throws(SimulatorError) {
            if let value = fields["channel"] {
                guard let number = value.stringValue, RokuTuner.channel(number) != nil else {
                    let known = RokuTuner.channels.map(\.number).joined(separator: ", ")
                    throw SimulatorError("'channel' must be one of \(known)")
                }
                guard kind == .tv else { throw SimulatorError("'channel': a stick has no tuner") }
                channel = number
            }
            if let value = fields["live"] {
                guard let flag = value.boolValue else { throw SimulatorError("'live' must be true or false") }
                live = flag
            }
        }

        func apply(to state: inout RokuSimState) {
            if let channel { state.channel = channel }
            if let live { state.live = live }
        }
    }
}
