import Support
import TVModel
import Wire

/// The later rounds' command values (SPEC §10, §11): a held key's `hold_ms`, `search`, `toast`.
extension CommandParser {
    /// `hold_ms`: a whole number in `TVCommand.holdRange`; a held key is pressed once, so
    /// `repeat` cannot go with it.
    static func holdMilliseconds(_ value: JSONValue, repeat: JSONValue?) throws(CommandParseError) -> Int {
        let range = TVCommand.holdRange
        guard let milliseconds = value.intValue, range.contains(milliseconds) else {
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
        if let text = value.stringValue { return SearchRequest(keyword: try searchKeyword(text)) }
        guard let members = value.objectValue else {
            throw refuse("search: expected a keyword or an object such as {\"keyword\":\"harry potter\"}")
        }
        let known = ["keyword", "type", "provider", "launch"]
        for key in members.keys.sorted() where !known.contains(key) {
            throw refuse("search: unknown field '\(printable(key))' (known: \(known.joined(separator: ", ")))")
        }
        guard let keyword = members["keyword"]?.stringValue else { throw refuse("search: needs a keyword string") }
        var request = SearchRequest(keyword: try searchKeyword(keyword))
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
        if let violation = request.limitViolation { throw refuse(violation) }
        return request
    }

    /// A search keyword is checked like typed text (SPEC §10: up to 255 characters).
    static func searchKeyword(_ text: String) throws(CommandParseError) -> String {
        if let violation = SearchRequest(keyword: text).limitViolation { throw refuse(violation) }
        return text
    }

    /// A toast's message: 1 to `TVCommand.maxToastLength` characters, as sent (not trimmed).
    /// Line breaks are kept (a toast may have several lines); other control characters are refused.
    static func toastMessage(_ text: String) throws(CommandParseError) -> String {
        if let violation = TVCommand.toast(text).limitViolation { throw refuse(violation) }
        let control = text.unicodeScalars.contains { $0.isControlCharacter && $0 != "\n" }
        guard !control else { throw refuse("toast: control characters other than line breaks cannot be shown") }
        return text
    }

    private static func refuse(_ message: String) -> CommandParseError {
        CommandParseError(message: message, transaction: nil)
    }

    private static func shown(_ value: JSONValue) -> String {
        if let text = value.stringValue { return "'\(printable(text))'" }
        return value.typeName == "number" ? value.serialized() : value.typeName
    }
}
