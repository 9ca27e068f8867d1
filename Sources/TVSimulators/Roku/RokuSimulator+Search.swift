import Wire

/// `POST /search/browse?keyword=…[&type=…&provider=…&launch=true]` (ECP reference,
/// "search"): logged as `search`. It opens the search screen (part of the home screen); with
/// `launch=true` and a provider this TV has, that channel starts instead. Refused in Limited
/// mode, like every HTTP command.
extension RokuSimulator {
    func search(_ items: [(name: String, value: String)]) -> HTTPResponse {
        var fields: [String: JSONValue] = [:]
        for (name, value) in items { fields[name] = .string(value) }
        return core.withLock { core in
            defer { announceLocked(&core) }
            if core.state.limited {
                fields["refused"] = "limited mode"
                record("search", fields)
                return SimResponse.plain(403, Self.limitedBody)
            }
            guard let keyword = fields["keyword"]?.stringValue, !keyword.isEmpty else {
                fields["refused"] = "no keyword"
                record("search", fields)
                return SimResponse.plain(400, "missing keyword")
            }
            record("search", fields)
            guard core.state.power == .on else { return HTTPResponse(status: 200) }
            let provider = fields["provider"]?.stringValue?.lowercased()
            let channel = RokuCatalog.apps(for: kind).first {
                $0.type == "appl" && ($0.id == provider || $0.name.lowercased() == provider)
            }
            if fields["launch"] == "true", let channel {
                switchApp(channel.id, &core)
            } else {
                goHome(&core)
            }
            core.restartClock()
            return HTTPResponse(status: 200)
        }
    }
}
