/// What the user reads about pairing an Android TV, in one place (the troubleshooting table
/// names these lines).
enum AndroidTVPairingHelp {
    static let notPaired =
        "the TV does not know tv2mqtt's certificate: pair it (Pair in Home Assistant, or tv2mqtt pair HOST), then type the code the TV shows"
    static let codeShown =
        "the TV shows a pairing code: send it as the pin (tv2mqtt pair --pin CODE, or bridge/request/tv/pair with \"pin\")"
    static let noCodeShown = "the TV shows no pairing code for tv2mqtt: pair first, then send the code it shows"
}
