extension TVSnapshot {
    /// Forgets everything about live TV: the TV left the tuner (or went off), and a channel
    /// or program shown after that would be stale.
    public mutating func clearChannel() {
        channelNumber = nil
        channelName = nil
        channel = nil
        mediaTitle = nil
        mediaDescription = nil
    }

    /// Forgets what is playing: nothing is, or the TV does not say.
    public mutating func clearMedia() {
        mediaState = nil
        position = nil
        duration = nil
        live = nil
    }
}
