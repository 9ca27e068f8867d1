/// The remote-control token a Samsung TV issues when the user approves tv2mqtt.
///
/// A secret (README › Security): whoever holds it controls the TV without a prompt. Every textual form
/// of this value (`description`, `debugDescription`, `dump`, string interpolation) prints a
/// placeholder; only `value` gives the token, for the URL and the state file.
public struct SamsungToken: Hashable, Sendable, CustomStringConvertible,
    CustomDebugStringConvertible,
    CustomReflectable
{
    /// The token itself. Never log it.
    public let value: String

    /// `nil` for an empty token: TVs that approve without a token send none or `""`.
    public init?(_ value: String) {
        guard !value.isEmpty else { return nil }
        self.value = value
    }

    public var description: String { "<token redacted>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
