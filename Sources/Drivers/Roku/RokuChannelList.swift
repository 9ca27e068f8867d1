import Wire

/// One channel of a Roku TV's tuner, as `/query/tv-channels` and `/query/tv-active-channel`
/// describe it: `<channel><number>1.1</number><name>WhatsOn</name><type>air-digital</type>
/// <user-hidden>false</user-hidden></channel>`.
public struct RokuTVChannel: Equatable, Sendable {
    /// "7.1" (ATSC major.minor), "12" (analog or cable).
    public var number: String
    public var name: String?
    /// The user hid it from the guide; it is left out of the select's options.
    public var hidden: Bool

    public init(number: String, name: String? = nil, hidden: Bool = false) {
        self.number = number
        self.name = name
        self.hidden = hidden
    }

    /// nil for a channel without a usable number (nothing to tune to).
    init?(_ element: XMLElement) {
        guard let number = RokuXML.nonEmpty(element.childText("number")),
            Self.isChannelNumber(number)
        else { return nil }
        self.number = number
        name = RokuXML.nonEmpty(element.childText("name"))
        hidden = RokuXML.bool(element.childText("user-hidden")) ?? false
    }

    /// "7.1 KQED": the select's option and the `channel` state field; the number alone without a name.
    public var label: String { name.map { number + " " + $0 } ?? number }

    /// Digits with at most a few `.` or `-` separators ("7.1", "2-1", "13"): what goes into
    /// `launch/tvinput.dtv?ch=`, at most 16 characters.
    public static func isChannelNumber(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 16 && text.utf8.first.map { $0 >= 0x30 && $0 <= 0x39 } == true
            && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }
    }
}

/// `GET /query/tv-channels`: the channels a scan found, in the TV's order. `<tv-channels/>`
/// (no scan yet) is a valid, empty list.
public enum RokuChannelList {
    /// The most channels kept (and offered as select options): a cable scan can find
    /// thousands, and Home Assistant's select and the discovery config must stay small.
    public static let maxChannels = 500

    public static func parse(_ bytes: [UInt8]) throws(DriverError) -> [RokuTVChannel] {
        let root = try RokuXML.root(bytes, named: "tv-channels", what: "channel list")
        var channels: [RokuTVChannel] = []
        var seen: Set<String> = []
        for element in root.children where element.name == "channel" {
            guard channels.count < maxChannels else { break }
            guard let channel = RokuTVChannel(element), seen.insert(channel.number).inserted else { continue }
            channels.append(channel)
        }
        return channels
    }

    /// The select's options: the channels the user did not hide.
    public static func options(_ channels: [RokuTVChannel]) -> [String] {
        channels.filter { !$0.hidden }.map(\.label)
    }

    /// The channel a command names: its number ("7.1"), its label ("7.1 KQED"), or its name
    /// ("KQED", when only one channel has it); case-insensitive for names.
    public static func resolve(_ requested: String, in channels: [RokuTVChannel]) -> RokuTVChannel? {
        let wanted = requested.trimmed
        if let channel = channels.first(where: { $0.number == wanted || $0.label == wanted }) { return channel }
        let number = wanted.split(separator: " ", maxSplits: 1).first.map(String.init) ?? wanted
        if let channel = channels.first(where: { $0.number == number }) { return channel }
        let named = channels.filter { $0.name?.lowercased() == wanted.lowercased() }
        return named.count == 1 ? named[0] : nil
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines.
    fileprivate var trimmed: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
