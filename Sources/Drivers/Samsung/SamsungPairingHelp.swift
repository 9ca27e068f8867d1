/// What the user reads when a Samsung TV has not approved tv2mqtt (a `pairing_required`
/// event): what happened and what to do on the TV.
public enum SamsungPairingHelp {
    /// Where Tizen keeps the list of approved and denied remote devices.
    static let deviceList =
        "Settings › General › External Device Manager › Device Connection Manager › Device List"

    /// `ms.channel.unauthorized`: the user chose Deny, an earlier denial is remembered, or
    /// the token we sent was revoked.
    public static func denied(clientName: String, plainPort: Bool) -> String {
        var text =
            "The TV did not allow \"\(clientName)\" to control it. On the TV, choose Allow when it asks about "
            + "\"\(clientName)\". If it was denied before, open \(deviceList), remove or allow \"\(clientName)\", "
            + "and set Access Notification to \"First time only\"; then pair again (tv2mqtt pair HOST, or the "
            + "tv/pair request)."
        if plainPort {
            text +=
                " (tv2mqtt reached this TV on port 8001 because the secure port 8002 did not work; TVs that use "
                + "tokens only approve clients on 8002.)"
        }
        return text
    }

    /// `ms.channel.timeOut`, or our own pairing deadline: the prompt went unanswered.
    public static func unanswered(clientName: String, seconds: Int) -> String {
        "Nobody answered the prompt on the TV: it asks whether to allow \"\(clientName)\", and nobody chose "
            + "Allow within \(seconds) seconds. Pair again (tv2mqtt pair HOST, or the tv/pair request) while "
            + "someone is at the TV, and choose Allow. If no prompt appears, check \(deviceList) and set Access "
            + "Notification to \"First time only\"."
    }

    /// `ms.error` "unrecognized method value : ms.remote.control": a 2014/2015 (H/J) TV.
    public static let legacyModel =
        "This Samsung TV (a 2014/2015 H or J series) does not speak the Tizen remote protocol; it needs the "
        + "encrypted PIN pairing on port 8000, which tv2mqtt does not support."

    public static func certificateChanged(pinned: String, seen: String) -> String {
        "The TV's TLS certificate changed since tv2mqtt first saw it (pinned \(pinned.prefix(16))…, now "
            + "\(seen.prefix(16))…), so tv2mqtt will not send it the token: something may be impersonating the TV. "
            + "If the TV was reset, updated or replaced, pair again (tv2mqtt pair HOST, or the tv/pair request) to "
            + "accept the new certificate."
    }
}
