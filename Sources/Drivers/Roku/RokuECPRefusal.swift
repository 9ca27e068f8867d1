/// What tv2mqtt tells the user when a Roku refuses or ignores it for a reason the Roku does not
/// state: "Control by mobile apps" stricter than its name suggests (Roku OS 15.2.4 refuses
/// plain-HTTP keypresses under Enabled), or silence after a software update (Roku OS 14.1.4).
enum RokuECPRefusal {
    static let settingPath = "Settings › System › Advanced system settings › Control by mobile apps › Network access"

    /// The `command_failed` message and the state's reason for a key refused with a bare 403
    /// under `mode` (`enabled`, `default`).
    static func permissiveMessage(mode: String) -> String {
        let shown = mode.prefix(1).uppercased() + mode.dropFirst()
        return
            "the Roku refuses keys from apps while Control by mobile apps is \(shown) (HTTP 403): on the TV choose \(settingPath): Permissive"
    }

    /// Whether a bare 403 under this `ecp-setting-mode` is the setting refusing: Enabled on
    /// Roku OS 15.2.4, and Default (whose rights vary by firmware).
    static func explains403(_ mode: String?) -> Bool {
        mode == "enabled" || mode == "default"
    }

    /// The `tv_lost` hint for a Roku that answered before and now lets requests time out.
    static let silenceHint =
        "requests time out; likely it was switched off without Fast TV start (Settings › System › Power › Fast TV start), or a software update changed Control by mobile apps (\(settingPath): Permissive)"

    /// A request that found no one answering (a timeout, or a connection that could not be
    /// made in time or routed), not one that was refused outright: a switched-off Roku TV
    /// without Fast TV start leaves the network, and a mute one accepts and never answers.
    static func isSilence(_ error: DriverError) -> Bool {
        error.kind == .timeout
            || (error.kind == .unreachable
                && (error.message.contains("no answer within") || error.message.lowercased().contains("no route")))
    }
}
