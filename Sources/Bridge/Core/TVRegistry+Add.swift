import Drivers
import TVModel

extension TVRegistry {
    struct AddOutcome: Sendable {
        var description: TVDescription
        /// false: the TV was known already (at this address, or under the id found there).
        var added: Bool
    }

    /// A TV asked for by `tv/add` (SPEC §10): probed at its address now (a failure is the
    /// answer, not a silent retry later), then added like a discovered TV.
    func addRequested(_ request: AddTVRequest) async throws(DriverError) -> AddOutcome {
        let host = request.address.host
        if let known = records.values.first(where: { $0.persisted.identity.host == host }) {
            return AddOutcome(description: await known.agent.description, added: false)
        }
        var found = try await factory.probe(host: host, kind: request.address.kind, port: request.address.port)
        failedProbes[host] = nil
        if let id = request.id { found.identity.id = id }
        if let name = request.name { found.identity.name = name }
        let id = found.identity.id
        if let known = records[id] {
            // The same TV on a new address, or an id the request gave that another TV has.
            guard request.id == nil else {
                throw DriverError(.rejected, "the id '\(id)' is already used by another TV")
            }
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
