import MQTTInterface
import TVModel

extension EntityTable {
    /// One TV's rows and whether each applies: the table's, with presses the driver names
    /// filled in, then a row for each sensor and control the driver declares. `known` are the
    /// sensors and controls any vendor may declare (`DiscoverySettings`): those this TV lacks
    /// are rows that do not apply, so a device config removes them as it does the table's.
    static func rows(
        for capabilities: TVCapabilities, kind: TVKind, known: ([DiagnosticSensor], [DeclaredControl])
    ) -> [(EntityDescription, Bool)] {
        let table = tv.map { row -> (EntityDescription, Bool) in
            var row = row
            if row.payloadPress == nil, let press = row.pressFromCapabilities { row.payloadPress = press(capabilities) }
            return (row, row.applies(capabilities, kind))
        }
        let declared = Set(capabilities.diagnosticSensors.map(\.key) + capabilities.controls.map(\.key))
        let rows = declaredRows(capabilities.diagnosticSensors + known.0, capabilities.controls + known.1)
        return table + rows.map { ($0, declared.contains($0.key)) }
    }

    /// The rows of declared sensors and controls, each key once (the first declaration wins):
    /// a valid key that is neither a table row's key nor a state document field of the
    /// bridge's own, nor a command property (a control's key is its `set/<key>`).
    static func declaredRows(_ sensors: [DiagnosticSensor], _ controls: [DeclaredControl]) -> [EntityDescription] {
        var taken = Set(tv.map(\.key))
        let sensorRows = sensors.filter { sensor in
            StateDocument.acceptsDeclared(sensor.key) && taken.insert(sensor.key).inserted
        }.map(diagnosticRow)
        let controlRows = controls.filter { control in
            control.hasValidKey && StateDocument.acceptsDeclared(control.key)
                && CommandProperty(rawValue: control.key) == nil && taken.insert(control.key).inserted
        }.map(controlRow)
        return sensorRows + controlRows
    }

    /// A driver's diagnostic text sensor: reads the state document field of its key.
    static func diagnosticRow(_ sensor: DiagnosticSensor) -> EntityDescription {
        EntityDescription(
            key: sensor.key, platform: .sensor, name: sensor.name, icon: sensor.icon, category: .diagnostic,
            stateTopic: .tvState, reading: .text(sensor.key))
    }

    /// A driver's switch or select: reads the state document field of its key, sends to
    /// `set/<key>`.
    static func controlRow(_ control: DeclaredControl) -> EntityDescription {
        EntityDescription(
            key: control.key, platform: control.platform == .switch ? .switch : .select, name: control.name,
            icon: control.icon, stateTopic: .tvState, reading: .option(control.key, .fixed(control.values)),
            command: .tvSetDeclared(control.key))
    }
}
