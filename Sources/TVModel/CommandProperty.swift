/// The command properties (SPEC §4): `<base>/<tv>/set/<property>` topics and the members of a
/// `<base>/<tv>/set` JSON command, the one list of their names. The command parser accepts
/// these, a command names itself by one (`TVCommand.property`), and Home Assistant's command
/// topics are built from them. In the order `tv2mqtt send --help` and the parser's errors list them.
public enum CommandProperty: String, Sendable, CaseIterable {
    case power, key, app, input, text, volume, mute, launch
    case artMode = "art_mode"
    case channel, search, screen
    case soundOutput = "sound_output"
    case toast
}
