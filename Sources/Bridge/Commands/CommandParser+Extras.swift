import Support
import TVModel
import Wire

/// Command values beyond the plain ones (README › MQTT topics and commands): a held key's `hold_ms`
/// and `search` (their limits, like every command's, are checked once by `TVCommand.checked()`).
extension CommandParser {
    /// `hold_ms`: a whole number (its range, `TVCommand.holdRange`, is checked with the
    /// command's other limits); a held key is pressed once, so `repeat` cannot go with it.
    static func holdMilliseconds(_ value: JSONValue, repeat: JSONValue?) throws(CommandParseError) -> Int {
        let range = TVCommand.holdRange
        guard let milliseconds = value.intValue else {
            throw refuse(
                "hold_ms: expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(shown(value))")
        }
        guard `repeat` == nil else { throw refuse("hold_ms and repeat cannot be combined: a held key is pressed once") }
        return milliseconds
    }

    /// `"search": "harry potter"`, or an object with the optional fields:
    /// `{"keyword":"harry potter","type":"movie","provider":"Netflix","launch":true}`. The
    /// fields sit in the object because a top-level `launch` is already the deep-link command.
    static func search(_ value: JSONValue) throws(CommandParseError) -> SearchRequest {
        if let text = value.stringValue { return SearchRequest(keyword: text) }
        guard let members = value.objectValue else {
            throw refuse("search: expected a keyword or an object such as {\"keyword\":\"harry potter\"}")
        }
        let known = ["keyword", "type", "provider", "launch"]
        for key in members.keys.sorted() where !known.contains(key) {
            throw refuse("search: unknown field '\(printable(key))' (known: \(known.joined(separator: ", ")))")
        }
        guard let keyword = members["keyword"]?.stringValue else { throw refuse("search: needs a keyword string") }
        var request = SearchRequest(keyword: keyword)
        if let type = members["type"] {
            guard let text = type.stringValue else { throw refuse("search.type: expected a string") }
            request.type = text
        }
        if let provider = members["provider"] {
            guard let text = provider.stringValue else { throw refuse("search.provider: expected a string") }
            request.provider = text
        }
        if let launch = members["launch"] {
            guard let flag = launch.boolValue else { throw refuse("search.launch: expected true or false") }
            request.launch = flag
        }
        return request
    }

    private static func refuse(_ message: String) -> CommandParseError {
        CommandParseError(message: message, transaction: nil)
    }

    private static func shown(_ value: JSONValue) -> String {
        if let text = value.stringValue { return "'\(printable(text))'" }
        return value.typeName == "number" ? value.serialized() : value.typeName
    }
}
