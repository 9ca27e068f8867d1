import Drivers
import MQTTInterface
import Support
import Synchronization
import TVModel
import Wire

/// The address the bridge device's "TV to add" text last set (`tv/add_host`), which the
/// "Add TV" button (`tv/add` without a host) adds. In memory only: the text in Home
/// Assistant keeps what was typed, and a restart just asks for it again.
final class AddTVDraft: Sendable {
    let address = Mutex<AddTVAddress?>(nil)
}

/// `bridge/request/tv/add` (README › Bridge requests): `{"host","kind"?,"port"?,"id"?,"name"?}` or
/// a plain `[kind:]host[:port]`.
struct AddTVRequest: Sendable {
    var address: AddTVAddress
    var id: TVID?
    var name: String?

    /// `vendors`: the bridge's, whose kinds a request may name.
    static func parse(_ request: [String: JSONValue], plain: String?, draft: AddTVAddress?, vendors: [Vendor])
        throws(BridgeService.RequestError) -> AddTVRequest
    {
        var address: AddTVAddress
        if let host = request["host"]?.stringValue {
            var port: UInt16?
            if let value = request["port"] {
                guard let number = value.intValue, let valid = UInt16(exactly: number), valid > 0 else {
                    throw .init("\"port\" must be a number from 1 to 65535")
                }
                port = valid
            }
            address = try AddTVAddress.parse(host, vendors: vendors)
            if let kind = request["kind"] {
                guard let text = kind.stringValue else {
                    throw .init(
                        "\"kind\" must be one of \(AddTVAddress.kindNames(vendors).joined(separator: ", "))")
                }
                address.kind = try AddTVAddress.kind(text, vendors: vendors)
            }
            if let port { address.port = port }
        } else if let plain, !plain.trimmingWhitespace.isEmpty {
            address = try AddTVAddress.parse(plain, vendors: vendors)
        } else if let draft {
            address = draft
        } else {
            throw .init(
                "tv/add needs a \"host\" (an IP address), or an address in the bridge's \"TV to add\" text first")
        }
        var parsed = AddTVRequest(address: address)
        if let value = request["id"] {
            guard let text = value.stringValue, let id = TVID(text), !Topics.collidesWithBridgeTopics(text) else {
                throw .init("\"id\" must be 1 to 64 of a-z 0-9 _ - and not 'bridge'")
            }
            parsed.id = id
        }
        if let value = request["name"] {
            guard let name = value.stringValue, PrintableName.isValid(name) else {
                throw .init("\"name\" must be 1 to \(PrintableName.maxLength) printable characters")
            }
            parsed.name = name
        }
        return parsed
    }
}

extension AddTVRequest {
    /// What a requester reads of a failed probe: the kind of failure, never the device's
    /// words (the probe's own message, which may quote whatever listens at the address, goes
    /// to the log only).
    static func refusal(_ error: DriverError, at address: AddTVAddress) -> String {
        let place = address.description
        return switch error.kind {
        case .unreachable: "no TV answered at \(place) (nothing accepted the connection)"
        case .timeout: "no TV answered at \(place) in time"
        case .badResponse: "the device at \(place) did not answer as a TV tv2mqtt knows"
        case .rejected, .forbidden, .unauthorized, .pinRequired: "the device at \(place) refused the probe"
        // Written by the drivers themselves, quoting nothing the device sent.
        case .limitedMode, .unsupported: error.message
        }
    }
}

extension BridgeService {
    /// `tv/add`: probes the address, adds the TV (persisted in the state directory like any
    /// TV found), answers with its id. A TV already known at that address, or known under the
    /// id the probe finds, is not added twice: the answer says `"added": false`. The address
    /// must pass `AddTVPolicy`; the probe goes through `AddTVGate` (counted for `requester`)
    /// and the discovery probe pool.
    func addTV(_ request: [String: JSONValue], plain: String?, from requester: Requester) async throws(RequestError)
        -> JSONValue
    {
        let parsed = try AddTVRequest.parse(
            request, plain: plain, draft: addTVDraft.address.withLock { $0 }, vendors: context.vendors)
        try addTVPolicy.check(parsed.address)
        let outcome: TVRegistry.AddOutcome
        if let known = await registry.known(at: parsed.address.host) {
            outcome = TVRegistry.AddOutcome(description: known, added: false)
        } else {
            if let refusal = await registry.fullRefusal() { throw RequestError(refusal) }
            try await addTVGate.enter(for: requester)
            await finder.probes.acquire()
            let result: Result<TVRegistry.AddOutcome, RequestError>
            do {
                result = .success(try await registry.addRequested(parsed))
            } catch {
                result = .failure(error)
            }
            await finder.probes.release()
            await addTVGate.leave()
            outcome = try result.get()
        }
        let description = outcome.description
        if outcome.added { await publishInfo() }
        return [
            "id": .string(description.identity.id.rawValue), "name": .string(description.identity.name),
            "kind": .string(description.identity.kind.rawValue), "host": .string(description.identity.host),
            "added": .bool(outcome.added),
        ]
    }

    /// `tv/add_host`: remembers the address the "TV to add" text holds (checked now, probed on
    /// "Add TV"); an empty text forgets it.
    func setAddTVHost(_ request: [String: JSONValue], plain: String?) throws(RequestError) -> JSONValue {
        let text = request["host"]?.stringValue ?? plain ?? ""
        if text.trimmingWhitespace.isEmpty {
            addTVDraft.address.withLock { $0 = nil }
            return ["host": .null]
        }
        let address = try AddTVAddress.parse(text, vendors: context.vendors)
        try addTVPolicy.check(address)
        addTVDraft.address.withLock { $0 = address }
        return ["host": .string(address.host)]
    }
}
