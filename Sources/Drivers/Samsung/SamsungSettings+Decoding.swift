import Wire

extension SamsungSettings {
    static func decode(_ value: JSONValue?, _ reader: ConfigReader) throws(ConfigError) -> SamsungSettings {
        let members = try reader.object(
            value, "samsung", allowed: ["client_name", "apps", "inputs", "events", "event_port", "event_callback_host"])
        var samsung = SamsungSettings()
        try samsung.decodeEvents(members, reader)
        if let name = try reader.string(members["client_name"], "samsung.client_name") {
            guard !name.isEmpty, name.count <= 64 else {
                throw reader.fail("samsung.client_name", "must be 1 to 64 characters")
            }
            samsung.clientName = name
        }
        if let apps = members["apps"] {
            guard let entries = apps.objectValue else {
                throw reader.fail("samsung.apps", "expected an object of name: id")
            }
            var parsed: [String: String] = [:]
            for (name, id) in entries {
                guard let text = id.stringValue ?? id.intValue.map(String.init),
                    !text.isEmpty, text.utf8.count <= 64,
                    text.unicodeScalars.allSatisfy({
                        $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "_"
                    })
                else {
                    throw reader.fail("samsung.apps.\(name)", "expected an app id such as \"3201907018807\"")
                }
                parsed[name] = text
            }
            samsung.apps = parsed
        }
        if let inputs = members["inputs"] {
            samsung.inputs = try decodeInputs(inputs, reader, path: "samsung.inputs")
        }
        return samsung
    }

    /// `samsung.events`, `samsung.event_port` (0 = any free port) and `samsung.event_callback_host`.
    private mutating func decodeEvents(_ members: [String: JSONValue], _ reader: ConfigReader) throws(ConfigError) {
        if let events = try reader.bool(members["events"], "samsung.events") { self.events = events }
        if let port = try reader.integer(members["event_port"], "samsung.event_port", in: 0...65535) {
            eventPort = UInt16(port)
        }
        if let host = try reader.string(members["event_callback_host"], "samsung.event_callback_host"), !host.isEmpty {
            try reader.validateHost(host, "samsung.event_callback_host")
            eventCallbackHost = host
        }
    }

    /// `samsung.inputs` (and a TV's own `tvs[].inputs`): `{"HDMI 1": ["KEY_HDMI1"], "Apple TV":
    /// ["KEY_SOURCE", "KEY_RIGHT", "KEY_ENTER"]}`, checked against the Samsung key allowlist
    /// (`SamsungInputs.problem`), so check-config refuses a key the driver would refuse at every command.
    static func decodeInputs(_ value: JSONValue, _ reader: ConfigReader, path: String) throws(ConfigError)
        -> [String: [String]]
    {
        guard let entries = value.objectValue else {
            throw reader.fail(
                path, "expected an object of name: [keys], such as {\"HDMI 1\": [\"KEY_HDMI1\"]}")
        }
        var table: [String: [String]] = [:]
        for (name, keys) in entries {
            guard let list = keys.arrayValue?.compactMap(\.stringValue), list.count == keys.arrayValue?.count
            else {
                throw reader.fail("\(path).\(name)", "expected a list of key names such as [\"KEY_HDMI1\"]")
            }
            table[name] = list
        }
        if let problem = SamsungInputs.problem(in: table) { throw reader.fail(path, problem) }
        return table
    }
}
