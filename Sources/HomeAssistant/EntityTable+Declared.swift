import MQTTInterface
import TVModel

extension EntityTable {
    /// One TV's rows and whether each applies: the table's, with presses the driver names
    /// filled in, then a diagnostic sensor for each one the driver declares. `known` are the
    /// sensors any vendor may declare (`DiscoverySettings.diagnosticSensors`): those this TV
    /// lacks are rows that do not apply, so a device config removes them as it does the table's.
    static func rows(
        for capabilities: TVCapabilities, kind: TVKind, known: [DiagnosticSensor]
    ) -> [(EntityDescription, Bool)] {
        let table = tv.map { row -> (EntityDescription, Bool) in
            var row = row
            if row.payloadPress == nil, let press = row.pressFromCapabilities { row.payloadPress = press(capabilities) }
            return (row, row.applies(capabilities, kind))
        }
        let declared = Set(capabilities.diagnosticSensors.map(\.key))
        let sensors = usableSensors(capabilities.diagnosticSensors + known).map {
            (diagnosticRow($0), declared.contains($0.key))
        }
        return table + sensors
    }

    /// The sensors that can be rows, each key once (the first declaration wins): a valid key
    /// that is neither a table row's key nor a state document field of the bridge's own.
    static func usableSensors(_ sensors: [DiagnosticSensor]) -> [DiagnosticSensor] {
        var taken = Set(tv.map(\.key))
        return sensors.filter { sensor in
            StateDocument.acceptsDiagnostic(sensor.key) && taken.insert(sensor.key).inserted
        }
    }

    /// A driver's diagnostic text sensor: reads the state document field of its key.
    static func diagnosticRow(_ sensor: DiagnosticSensor) -> EntityDescription {
        EntityDescription(
            key: sensor.key, platform: .sensor, name: sensor.name, icon: sensor.icon, category: .diagnostic,
            stateTopic: .tvState, reading: .text(sensor.key))
    }
}
