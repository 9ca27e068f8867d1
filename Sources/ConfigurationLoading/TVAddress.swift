import TVModel
import Wire

/// A TV named by its address on the command line, `[kind:]HOST[:PORT]` with the kind of a
/// vendor driven (`roku`, `samsung`, `samsung-legacy`, `lg`): a `--tv` flag, or the TV of
/// `tv2mqtt send` that the state directory does not know.
public struct TVAddress: Sendable, Equatable {
    /// nil: find out by probing.
    public var kind: TVKind?
    /// Without the brackets of an IPv6 address.
    public var host: String
    public var port: UInt16?

    public init(kind: TVKind? = nil, host: String, port: UInt16? = nil) {
        (self.kind, self.host, self.port) = (kind, host, port)
    }

    /// As an entry of the file's `tvs`, where `--tv` adds it: decoded and validated with them.
    var configurationEntry: JSONValue {
        var members: [String: JSONValue] = ["host": .string(host)]
        if let kind { members["kind"] = .string(kind.rawValue) }
        if let port { members["port"] = .integer(Int64(port)) }
        return .object(members)
    }
}
