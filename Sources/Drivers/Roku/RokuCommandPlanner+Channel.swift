import TVModel

extension RokuCommandPlanner {
    /// A channel of the tuner's list, by number, label or name. Refused on a Roku without a
    /// tuner, before the list was read, and for a channel not on it (an unknown
    /// channel is a `command_failed`, not a guess sent to the TV).
    func planChannel(_ requested: String) throws(CommandRejection) -> RokuAction {
        guard capabilities.channels else {
            throw CommandRejection("channel: this Roku has no TV tuner")
        }
        guard let channels else {
            throw CommandRejection(
                "channel: the channel list of this Roku TV is not known yet; try again once it has answered")
        }
        guard !channels.isEmpty else {
            throw CommandRejection(
                "channel: this Roku TV has no channels; run a channel scan on the TV (Live TV › Set up antenna)")
        }
        guard let channel = RokuChannelList.resolve(requested, in: channels) else {
            let known = channels.prefix(20).map(\.label).joined(separator: ", ")
            throw CommandRejection(
                "channel: unknown channel '\(Self.printable(requested))'; channels: \(known)\(channels.count > 20 ? ", …" : "")"
            )
        }
        return .tune(channel: channel.number)
    }
}
