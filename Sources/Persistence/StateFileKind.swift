import TVModel

/// A kind of TV the state file may hold, with what a file written by an older version lacks
/// for it. The caller makes these from the vendors it drives; a file naming any other kind is
/// refused (moved aside), since no driver could take its TVs.
public struct StateFileKind: Sendable {
    public var kind: TVKind
    /// For an identity saved without its manufacturer.
    public var manufacturer: String
    /// For an identity saved without its port.
    public var defaultPort: UInt16
    /// What a `findRemote` flag of capabilities saved before the key was declared becomes.
    public var findRemoteKey: String?
    /// What capabilities saved before sensors were declared get.
    public var diagnosticSensors: [DiagnosticSensor]
    /// The controls whose old flag (`DeclaredControl.stateFileFlag`) capabilities saved before
    /// controls were declared may carry.
    public var controls: [DeclaredControl]

    public init(
        kind: TVKind, manufacturer: String, defaultPort: UInt16, findRemoteKey: String? = nil,
        diagnosticSensors: [DiagnosticSensor] = [], controls: [DeclaredControl] = []
    ) {
        self.kind = kind
        self.manufacturer = manufacturer
        self.defaultPort = defaultPort
        self.findRemoteKey = findRemoteKey
        self.diagnosticSensors = diagnosticSensors
        self.controls = controls
    }
}

extension [StateFileKind] {
    func kind(_ kind: TVKind) -> StateFileKind? { first { $0.kind == kind } }
}
