import TVModel

/// What a command becomes on a pre-2016 Samsung: keys, and power.
public enum SamsungLegacyAction: Equatable, Sendable {
    /// Key codes sent in order over one authenticated connection.
    case keys([String])
    /// Power, decided against reachability when executed: OFF sends `KEY_POWEROFF` only while
    /// the TV answers; ON is Wake-on-LAN (a MAC must be known), never a key.
    case power(PowerAction)
}

/// Checks a command against what the legacy protocol can do. Pure. The key vocabulary is the
/// Samsung one (`SamsungKeys`: the same `KEY_…` codes on every model year); everything that
/// needs the Tizen APIs (apps, text, volume level, mute state, inputs) is refused here.
public enum SamsungLegacyPlanner {
    /// The legacy TVs' own power-off code (discrete; `KEY_POWER` toggles).
    static let powerOffKey = "KEY_POWEROFF"

    /// The command's limits were checked once, by `TVCommand.checked()`.
    public static func plan(_ checked: CheckedCommand, macs: [String]) throws(CommandRejection) -> SamsungLegacyAction {
        let command = checked.command
        switch command {
        case .key(let key, let count):
            if case .vendor(let name) = key, name.uppercased() == powerOffKey { return .power(.off) }
            switch try SamsungKeys.resolve(key) {
            case .remote(let code): return .keys(Array(repeating: code, count: count))
            case .power(let action): return try power(action, macs: macs)
            }
        case .power(let action):
            return try power(action, macs: macs)
        case .holdKey:
            throw CommandRejection(
                "hold_ms is not available on a pre-2016 Samsung: its legacy remote protocol sends whole key presses only"
            )
        case .app, .launch, .text, .input, .volume, .mute, .channel, .search, .control, .screen, .soundOutput, .toast:
            throw CommandRejection(
                "\(command.name) is not available on a pre-2016 Samsung: its legacy remote protocol sends keys only")
        }
    }

    private static func power(_ action: PowerAction, macs: [String]) throws(CommandRejection) -> SamsungLegacyAction {
        if action == .on && macs.isEmpty { throw CommandRejection(SamsungLegacyHelp.cannotPowerOn) }
        return .power(action)
    }
}
