/// The features a remote session negotiates (`RemoteConfigure.code1`, `RemoteSetActive`): the
/// TV offers its set, the client answers with the ones it wants among them.
struct AndroidTVFeatures: OptionSet, Equatable, Sendable {
    let rawValue: UInt64

    static let ping = AndroidTVFeatures(rawValue: 1 << 0)
    static let key = AndroidTVFeatures(rawValue: 1 << 1)
    /// The input method: the current app's package, and text. It hides the TV's own keyboard
    /// on some models, so a setting turns it off.
    static let ime = AndroidTVFeatures(rawValue: 1 << 2)
    static let voice = AndroidTVFeatures(rawValue: 1 << 3)
    static let power = AndroidTVFeatures(rawValue: 1 << 5)
    static let volume = AndroidTVFeatures(rawValue: 1 << 6)
    static let appLink = AndroidTVFeatures(rawValue: 1 << 9)

    /// What the bridge asks for: everything but voice.
    static func wanted(ime: Bool) -> AndroidTVFeatures {
        var features: AndroidTVFeatures = [.ping, .key, .power, .volume, .appLink]
        if ime { features.insert(.ime) }
        return features
    }
}
