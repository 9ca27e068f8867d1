/// The command properties (README › MQTT topics and commands): `<base>/<tv>/set/<property>` topics
/// and the members of a `<base>/<tv>/set` JSON command, the one list of their names. The command
/// parser accepts these, a command names itself by one (`TVCommand.property`), and Home Assistant's
/// command topics are built from them. In the order a JSON command's members are carried out, which
/// is the order `tv2mqtt send --help` and the parser's errors list them (a driver's declared
/// controls, `DeclaredControl`, come right after `power`).
public enum CommandProperty: String, Sendable, CaseIterable {
    case power, screen, input, app, launch, volume, mute
    case soundOutput = "sound_output"
    case channel, key, text, search, toast
}
