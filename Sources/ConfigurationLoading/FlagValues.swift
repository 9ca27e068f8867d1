/// The values of the command-line flags that override configuration keys, by flag name without
/// dashes (`mqtt-server`). The loader reads flags through this, so it needs no command-line
/// parser; the command line's parsed arguments provide it.
public protocol FlagValues {
    /// Whether the flag was given (a switch such as `no-ssdp`).
    func has(_ name: String) -> Bool
    /// The flag's last value.
    func value(_ name: String) -> String?
    /// Every value of a repeatable flag, in order.
    func values(_ name: String) -> [String]
}
