import Support

/// A search of the TV's catalogue (README › MQTT topics and commands, `search`): Roku `POST
/// /search/browse`, which opens the Roku search screen with the keyword and, given `launch`, starts
/// the first match.
public struct SearchRequest: Equatable, Sendable {
    /// What is searched for (at most `TVCommand.maxTextLength` characters, like typed text).
    public var keyword: String
    /// Narrows the results to one kind; the TV's planner says which kinds it knows.
    public var type: String?
    /// A provider (channel) name or id to prefer (`provider`/`provider-id` of Roku's search).
    public var provider: String?
    /// Start the first match in the provider's app rather than showing the results.
    public var launch: Bool?

    public init(keyword: String, type: String? = nil, provider: String? = nil, launch: Bool? = nil) {
        self.keyword = keyword
        self.type = type
        self.provider = provider
        self.launch = launch
    }

    /// The longest provider name or id.
    public static let maxProviderLength = 128

    /// Why this request is outside the limits, or `nil` when it is within them.
    public var limitViolation: String? {
        if keyword.isEmpty { return "search: empty" }
        if keyword.count > TVCommand.maxTextLength {
            return "search: \(keyword.count) characters exceeds the limit of \(TVCommand.maxTextLength)"
        }
        if keyword.unicodeScalars.contains(where: \.isControlCharacter) {
            return "search: control characters (newlines, NUL…) cannot be searched for"
        }
        if let provider,
            provider.isEmpty || provider.count > Self.maxProviderLength
                || provider.unicodeScalars.contains(where: \.isControlCharacter)
        {
            return "search.provider: must be 1 to \(Self.maxProviderLength) characters without control characters"
        }
        return nil
    }
}
