import Drivers
import Wire

extension BridgeConfiguration {
    /// The effective configuration as JSON, with secrets masked: what `check-config` prints
    /// and `bridge/info` publishes, with the sections and defaults of `vendors`. The password
    /// shows as "***" when set, "" when not.
    public func effectiveJSON(vendors: [Vendor], stateDirectory: String? = nil) -> JSONValue {
        func optional(_ text: String) -> JSONValue { .string(text) }
        let sections = vendors.compactMap(\.configuration)
        let tvList: [JSONValue] = tvs.map { tv in
            var members: [String: JSONValue] = ["host": .string(tv.host)]
            if let kind = tv.kind { members["kind"] = .string(kind.rawValue) }
            if let name = tv.name { members["name"] = .string(name) }
            if let id = tv.id { members["id"] = .string(id.rawValue) }
            if !tv.macs.isEmpty { members["mac"] = .array(tv.macs.map(JSONValue.string)) }
            if let port = tv.port { members["port"] = .integer(Int64(port)) }
            for section in sections { members.merge(section.effectiveTV(tv.vendorOptions)) { $1 } }
            if let seconds = tv.wakeTimeout { members["wake_timeout"] = .number(seconds) }
            if tv.allowCleartext { members["allow_cleartext"] = .bool(true) }
            return .object(members)
        }
        var effective: [String: JSONValue] = [
            "mqtt": [
                "server": .string(mqtt.server.description),
                "user": .string(mqtt.user),
                "password": .string(mqtt.password.isEmpty ? "" : "***"),
                "client_id": .string(mqtt.clientID),
                "keepalive": .integer(Int64(mqtt.keepalive)),
                "ca": .string(mqtt.ca), "cert": .string(mqtt.cert), "key": .string(mqtt.key),
                "reject_unauthorized": .bool(mqtt.rejectUnauthorized),
            ],
            "base_topic": .string(baseTopic),
            "homeassistant": [
                "enabled": .bool(homeAssistant.enabled),
                "discovery_prefix": .string(homeAssistant.discoveryPrefix),
                "status_topic": .string(homeAssistant.statusTopic),
                "discovery": .string(homeAssistant.style.rawValue),
                "merge_with_native_devices": .bool(homeAssistant.mergeWithNativeDevices),
            ],
            "discovery": [
                "ssdp": .bool(discovery.ssdp),
                "ssdp_address": .string(discovery.ssdpAddress.description),
                "mdns": .bool(discovery.mdns),
                "mdns_address": .string(discovery.mdnsAddress.description),
                "interfaces": .array(discovery.interfaces.map(JSONValue.string)),
                "search_interval": .integer(Int64(discovery.searchInterval)),
                "scan": .array(discovery.scan.map { .string($0.description) }),
                "scan_ports": .array(discovery.ports(scannedFor: vendors).map { .integer(Int64($0)) }),
            ],
            "wol": [
                "targets": .array(wol.targets.map { .string($0.description) }),
                "repeat": .integer(Int64(wol.repeatCount)),
            ],
            "poll_interval": .number(pollInterval),
            "wake_timeout": .number(wakeTimeout),
            "state_dir": .string(stateDirectory ?? stateDir ?? ""),
            "tvs": .array(tvList),
            "add_tv": [
                "allow_loopback": .bool(addTV.allowLoopback),
                "ports": .array(addTV.ports.map { .integer(Int64($0)) }),
            ],
            "max_tvs": .integer(Int64(maxTVs)),
            "http": [
                "listen": .optional(http.listen?.description),
                "token": .string(http.token.isEmpty ? "" : "***"),
                "allow_from": .array(http.allowFrom.map(JSONValue.string)),
                "hosts": .array(http.hosts.map(JSONValue.string)),
            ],
            "log_level": .string(logLevel),
            "log_format": .string(logFormat),
        ]
        for section in sections { effective[section.key] = section.effective(vendorSettings) }
        return .object(effective)
    }
}
