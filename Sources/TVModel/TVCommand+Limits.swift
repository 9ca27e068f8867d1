import Support

/// The limits of a command's values, defined once (README › MQTT topics and commands) and checked
/// once, by `checked()` (`CheckedCommand.swift`): the command parser calls it for every command it
/// makes, and a driver plans only a `CheckedCommand`.
extension TVCommand {
    /// How many times one key message may press a key.
    public static let repeatRange = 1...20
    /// How long one message may hold a key, in milliseconds (held keys, README › MQTT topics and
    /// commands: pressed, held, released, the release tried whatever happens in between). Ten
    /// seconds covers a long fast-forward; a key held longer is more likely a stuck automation than
    /// a wish.
    public static let holdRange = 1...10_000
    /// The longest text typed in one message (the `keyboard` entity's max).
    public static let maxTextLength = 255
    /// The longest content id of a deep link (`launch`), in characters: deep links take
    /// fewer than 255.
    public static let maxContentIDLength = 254
    /// The longest message a `toast` shows, in characters (Home Assistant's state limit too).
    public static let maxToastLength = 255
    /// The volume levels a TV is set to.
    public static let volumeRange = 0...100
    /// How many commands may wait for one TV (in the bridge's queue, or a driver's while the
    /// TV is being paired); more are refused at once.
    public static let queueLimit = 32

    /// Why this command is outside the limits, or `nil` when it is within them.
    public var limitViolation: String? {
        switch self {
        case .key(_, let count) where !Self.repeatRange.contains(count):
            return
                "repeat: expected a whole number from \(Self.repeatRange.lowerBound) to \(Self.repeatRange.upperBound), got \(count)"
        case .text(let text) where text.isEmpty:
            return "text: empty"
        case .text(let text) where text.count > Self.maxTextLength:
            return "text: \(text.count) characters exceeds the limit of \(Self.maxTextLength)"
        case .text(let text) where text.unicodeScalars.contains(where: \.isControlCharacter):
            return "text: control characters (newlines, NUL…) cannot be typed"
        case .launch(_, let contentID?, _)
        where contentID.isEmpty || contentID.count > Self.maxContentIDLength
            || contentID.unicodeScalars.contains(where: \.isControlCharacter):
            return "launch.contentId: must be 1 to \(Self.maxContentIDLength) characters without control characters"
        case .volume(let level) where !Self.volumeRange.contains(level):
            return
                "volume: expected a whole number from \(Self.volumeRange.lowerBound) to \(Self.volumeRange.upperBound), got \(level)"
        case .holdKey(_, let milliseconds) where !Self.holdRange.contains(milliseconds):
            return
                "hold_ms: expected a whole number from \(Self.holdRange.lowerBound) to \(Self.holdRange.upperBound), got \(milliseconds)"
        case .search(let request):
            return request.limitViolation
        case .toast(let message) where message.isEmpty:
            return "toast: empty"
        case .toast(let message) where message.count > Self.maxToastLength:
            return "toast: \(message.count) characters exceeds the limit of \(Self.maxToastLength)"
        case .toast(let message) where message.unicodeScalars.contains(where: { $0.isControlCharacter && $0 != "\n" }):
            // Line breaks are kept: a toast may have several lines.
            return "toast: control characters other than line breaks cannot be shown"
        default:
            return nil
        }
    }
}
