/// The actions of `<base>/bridge/request/<action>` (README › Bridge requests), in the order error
/// messages list them.
public enum BridgeRequest: String, Sendable, CaseIterable {
    case discover
    case tvRemove = "tv/remove"
    case tvRename = "tv/rename"
    case tvPair = "tv/pair"
    /// Probe an address and add the TV there; without a host, the `tv/add_host` one.
    case tvAdd = "tv/add"
    /// Remember an address for `tv/add` (the bridge device's `add_tv_host` text).
    case tvAddHost = "tv/add_host"
    case healthCheck = "health_check"
    case logLevel = "log_level"
}
