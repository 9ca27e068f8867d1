import TVModel

/// What an Android TV command becomes (`AndroidTVPlanner`), carried out by `AndroidTVDriver`.
enum AndroidTVAction: Equatable, Sendable {
    /// Short presses of these Android key codes, in order.
    case keys([UInt64])
    /// START_LONG, `milliseconds`, END_LONG: always released.
    case hold(UInt64, milliseconds: Int)
    /// Idempotent: the TV's RemoteStart says whether it is on.
    case power(PowerAction)
    /// An app link: a deep link, a URL, or `market://launch?id=<package>`.
    case appLink(String)
    /// Volume keys from the level the TV reports to this percentage.
    case volume(Int)
    case mute(Bool)
    /// Through the input method's batch edit.
    case text(String)
}
