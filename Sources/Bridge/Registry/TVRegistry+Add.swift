import Drivers
import Support
import TVModel

extension TVRegistry {
    struct AddOutcome: Sendable {
        var description: TVDescription
        /// false: the TV was known already (at this address, or under the id found there).
        var added: Bool
    }

    /// The TV known at `host` (the canonical spelling `AddTVAddress` keeps), if any.
    func known(at host: String) async -> TVDescription? {
        guard let id = hostIndex[host], let record = records[id] else { return nil }
        return await record.agent.description
    }

    /// Why no TV can be added now (`max_tvs` reached), or nil.
    func fullRefusal() -> String? {
        let limit = context.configuration.maxTVs
        guard records.count >= limit else { return nil }
        return
            "the bridge keeps at most \(limit) TVs (max_tvs) and has \(records.count); remove one with tv/remove or raise max_tvs"
    }

    /// A TV asked for by `tv/add` (README › Bridge requests): probed at its address now (a failure
    /// is the answer, not a silent retry later), then added like a discovered TV. The caller has
    /// checked the address (`AddTVPolicy`) and holds a probe slot.
    func addRequested(_ request: AddTVRequest) async throws(BridgeService.RequestError) -> AddOutcome {
        let host = request.address.host
        if let known = await known(at: host) { return AddOutcome(description: known, added: false) }
        if let refusal = fullRefusal() { throw .init(refusal) }
        var found: TVDescription
        do {
            found = try await factory.probe(host: host, kind: request.address.kind, port: request.address.port)
        } catch {
            noteFailedProbe(host)
            context.logger.info(
                "tv/add: no TV added at \(request.address)", [("error", error.message), ("via", "tv/add")])
            throw .init(AddTVRequest.refusal(error, at: request.address))
        }
        failedProbes[host] = nil
        if let id = request.id { found.identity.id = id }
        if let name = request.name { found.identity.name = name }
        let id = found.identity.id
        if let known = records[id] {
            // The same TV on a new address, or an id the request gave that another TV has.
            guard request.id == nil else { throw .init("the id '\(id)' is already used by another TV") }
            await relocate(id, to: host, claim: found)
            return AddOutcome(description: await known.agent.description, added: false)
        }
        await add(found, persisted: nil, announce: true)
        context.logger.info(
            "added \(found.identity.kind) TV \(found.identity.name)",
            [("tv", id.rawValue), ("host", host), ("via", "tv/add")])
        return AddOutcome(description: found, added: true)
    }
}
