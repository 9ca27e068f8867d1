/// How commands reach a TV right now (the state document's `control`): a name each driver
/// defines for its own transports (`ControlPath+Drivers.swift` in Drivers), typed so the
/// bridge and the drivers cannot disagree on a spelling.
public struct ControlPath: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
