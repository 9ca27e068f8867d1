/// What the user reads when an LG TV has not approved tv2mqtt, and what to do.
enum LGPairingHelp {
    static let notPaired =
        "not paired with this LG TV: run 'tv2mqtt pair' (or press Pair in Home Assistant) and choose Accept on the TV"
    static let denied =
        "the TV refused tv2mqtt (Decline on the prompt, or the key was revoked): pair again and choose Accept on the TV"
    static let unanswered =
        "nobody answered the TV's prompt in time: pair again and choose Accept on the TV"
    static let pinShown =
        "the TV shows a PIN: send it with 'tv2mqtt pair --pin PIN' (or {\"pin\": \"PIN\"} on the bridge's tv/pair request)"
    static let wrongPIN =
        "the TV refused the PIN: pair again and type the PIN the TV shows"
    static let cleartextNotAllowed =
        "the TV refuses TLS on port 3001, and reaching it in clear on port 3000 would send its client key readable on the network: set \"allow_cleartext\": true in its tvs entry if you accept that (older webOS TVs have no TLS port)"
}
