/// What the user reads about a pre-2016 Samsung: the allow prompt's outcomes, power on, and
/// the 2014–2015 models whose encrypted protocol tv2mqtt does not speak.
public enum SamsungLegacyHelp {
    /// Where C–F series TVs keep the remembered answers.
    static let deviceList = "Menu › Network › AllShare Settings (or Multimedia › Device Connection Manager)"

    /// `64 00 00 00`: the user chose Deny, or denied this client before.
    public static func denied(clientName: String) -> String {
        "The TV did not allow \"\(clientName)\" to control it. On the TV, choose Allow when it asks about "
            + "\"\(clientName)\"; if it was denied before, open \(deviceList) and set \"\(clientName)\" to Allow, "
            + "then send the command again."
    }

    /// `65 …`, or our own deadline: nobody answered the prompt.
    public static func unanswered(clientName: String) -> String {
        "Nobody answered the prompt on the TV asking whether to allow \"\(clientName)\". Send the command again "
            + "while someone is at the TV, and choose Allow."
    }

    /// Power ON over the legacy protocol: impossible (the TV's network is off in standby).
    public static let cannotPowerOn =
        "a pre-2016 Samsung cannot be switched on over the network (its remote port is closed in standby); "
        + "configure its MAC address (tvs[].mac) to try Wake-on-LAN, which some 2013–2015 models obey"

    /// A 2014–2015 (H/J series) TV that answers `/ms/1.0/` but neither the Tizen REST API nor
    /// the legacy port.
    public static let encryptedModel =
        "this Samsung (a 2014–2015 H or J series model) needs the encrypted PIN pairing protocol "
        + "(ports 8000/8080), which tv2mqtt does not support; it cannot be controlled"
}
