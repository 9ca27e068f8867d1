import TVModel
import Wire

/// The state file's JSON, written and read with the project's own JSON (no Foundation: linked
/// in statically it alone would cost megabytes of resident memory on a Raspberry Pi).
///
/// The keys are those the first versions wrote through `Codable` (camelCase property names),
/// so existing state files keep loading. Reading is strict where a value identifies a TV
/// (id, kind, host) and lenient elsewhere; anything else wrong is a `StateFileError`, and the
/// store then moves the file aside.
extension PersistedState {
    var json: JSONValue {
        var members: [String: JSONValue] = ["version": .integer(Int64(version)), "tvs": .array(tvs.map(\.json))]
        if let installationID { members["installationId"] = .string(installationID) }
        return .object(members)
    }

    /// The state file: `json.prettyPrinted()` and a newline, made one TV at a time, so a save
    /// never holds the whole document (as a tree and as text, at thousands of TVs a large part
    /// of the bridge's peak memory).
    var fileChunks: some Sequence<[UInt8]> {
        let (tvs, version) = (self.tvs, self.version)
        // The members in key order: "installationId", "tvs", "version".
        let id = installationID.map { "  \"installationId\": \(JSONValue.string($0).serialized()),\n" } ?? ""
        let head = "{\n" + id + (tvs.isEmpty ? "  \"tvs\": [],\n" : "  \"tvs\": [\n")
        let tail = (tvs.isEmpty ? "" : "  ],\n") + "  \"version\": \(version)\n}\n"
        return (-1...tvs.count).lazy.map { index -> [UInt8] in
            if index < 0 { return Array(head.utf8) }
            if index == tvs.count { return Array(tail.utf8) }
            var out = Array("    ".utf8)
            tvs[index].json.writePretty(into: &out, level: 2)
            out += (index + 1 < tvs.count ? ",\n" : "\n").utf8
            return out
        }
    }

    /// Refuses a TV of a kind not in `kinds`.
    init(json: JSONValue, kinds: [StateFileKind]) throws(StateFileError) {
        guard let object = json.objectValue else { throw StateFileError("not a JSON object") }
        guard let version = object["version"]?.intValue else { throw StateFileError("no version") }
        guard version == 1 else { throw StateFileError("unknown version \(version)") }
        guard let list = object["tvs"]?.arrayValue else { throw StateFileError("no list of TVs") }
        var tvs: [PersistedTV] = []
        for (index, entry) in list.enumerated() {
            do {
                tvs.append(try PersistedTV(json: entry, kinds: kinds))
            } catch {
                throw StateFileError("tvs[\(index)]: \(error.description)")
            }
        }
        self.init(tvs: tvs)
        installationID = object["installationId"]?.stringValue.flatMap(Self.validInstallationID)
    }
}

extension PersistedTV {
    var json: JSONValue {
        var members: [String: JSONValue] = ["identity": identity.json]
        if let capabilities { members["capabilities"] = capabilities.json }
        if let apps { members["apps"] = .array(apps.map { ["id": .string($0.id), "name": .string($0.name)] }) }
        if let token { members["token"] = .string(token) }
        if let certificatePin { members["certificatePin"] = .string(certificatePin) }
        if let lastSeen { members["lastSeen"] = .number(lastSeen) }
        return .object(members)
    }

    init(json: JSONValue, kinds: [StateFileKind]) throws(StateFileError) {
        guard let identity = json["identity"] else { throw StateFileError("no identity") }
        self.init(identity: try TVIdentity(stateFile: identity, kinds: kinds))
        if let capabilities = json["capabilities"], !capabilities.isNull {
            self.capabilities = try TVCapabilities(stateFile: capabilities, kind: kinds.kind(self.identity.kind))
        }
        if let apps = json["apps"]?.arrayValue {
            self.apps = try apps.map { (app: JSONValue) throws(StateFileError) -> AppEntry in
                guard let id = app["id"]?.stringValue, let name = app["name"]?.stringValue else {
                    throw StateFileError("an app without id or name")
                }
                return AppEntry(id: id, name: name)
            }
        }
        token = json["token"]?.stringValue
        certificatePin = json["certificatePin"]?.stringValue
        lastSeen = json["lastSeen"]?.doubleValue
    }
}

extension TVIdentity {
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(id.rawValue), "kind": .string(kind.rawValue), "name": .string(name),
            "manufacturer": .string(manufacturer), "host": .string(host), "port": .integer(Int64(port)),
            "macs": .array(macs.map(JSONValue.string)),
        ]
        if let model { members["model"] = .string(model) }
        if let modelID { members["modelID"] = .string(modelID) }
        if let serialNumber { members["serialNumber"] = .string(serialNumber) }
        if let softwareVersion { members["softwareVersion"] = .string(softwareVersion) }
        return .object(members)
    }

    init(stateFile json: JSONValue, kinds: [StateFileKind]) throws(StateFileError) {
        guard let text = json["id"]?.stringValue, let id = TVID(text) else { throw StateFileError("no valid id") }
        guard let kindText = json["kind"]?.stringValue, let known = kinds.kind(TVKind(rawValue: kindText)) else {
            throw StateFileError("\(id): no valid kind")
        }
        let kind = known.kind
        guard let host = json["host"]?.stringValue, !host.isEmpty else { throw StateFileError("\(id): no host") }
        let port = json["port"]?.intValue.flatMap(UInt16.init(exactly:))
        self.init(
            id: id, kind: kind, name: json["name"]?.stringValue ?? id.rawValue,
            manufacturer: json["manufacturer"]?.stringValue ?? known.manufacturer,
            model: json["model"]?.stringValue, modelID: json["modelID"]?.stringValue,
            serialNumber: json["serialNumber"]?.stringValue, softwareVersion: json["softwareVersion"]?.stringValue,
            host: host, port: port ?? known.defaultPort,
            macs: (json["macs"]?.arrayValue ?? []).compactMap(\.stringValue))
    }
}

extension TVCapabilities {
    /// The members are the properties, as `Codable` names them (`JSONValueEncoder`).
    var json: JSONValue {
        (try? JSONValueEncoder().encode(self)) ?? [:]
    }

    /// What `Codable` reads (a member a file lacks reads as empty), and `kind` fills in what
    /// a file written before drivers declared their extras lacks: a `findRemote` flag becomes the
    /// kind's key, its TVs get the kind's sensors, and a control's old flag
    /// (`DeclaredControl.stateFileFlag`, the Frame's `artMode`) the control.
    init(stateFile json: JSONValue, kind: StateFileKind?) throws(StateFileError) {
        guard json.objectValue != nil else { throw StateFileError("capabilities are not an object") }
        do {
            self = try JSONValueDecoder().decode(TVCapabilities.self, from: json)
        } catch {
            throw StateFileError("capabilities: \(JSONValueDecoder.reason(error))")
        }
        func flag(_ key: String) -> Bool { json[key]?.boolValue ?? false }
        if json["findRemoteKey"] == nil && flag("findRemote") { findRemoteKey = kind?.findRemoteKey }
        if json["diagnosticSensors"] == nil { diagnosticSensors = kind?.diagnosticSensors ?? [] }
        if json["controls"] == nil {
            controls = (kind?.controls ?? []).filter { $0.stateFileFlag.map(flag) ?? false }
        }
    }
}
