/// What one art-channel connection believes about the art mode, from what the TV said: which
/// of our requests wait for an answer, the art mode, and whether the channel looks wedged.
///
/// A reply is matched to its request by id only (never by its name: 2019 firmware names the
/// status reply `artmode_status`, 2023+ firmware `get_artmode_status`, and both may reach us
/// for another client's request). `art_mode_changed` broadcasts follow the panel, while on
/// some firmware a status reply latches a value for hours (ha-samsungtv-smart's findings), so:
/// a reply to a request sent before the newest broadcast is older news and is ignored; a
/// newer reply that contradicts the last broadcast is not believed either, and two such in a
/// row mean the channel is wedged (the caller reopens it). A `set_artmode_status` reply
/// confirms the request; its `value` is not taken as the state (ha-samsungtv-smart issue 264:
/// a 2024 Frame's set reply read back as a status report turned the switch off again).
struct SamsungArtLedger {
    /// What a request asked, remembered until it is answered.
    enum Asked: Equatable, Sendable {
        case status
        case set(Bool)
        case version(legacy: Bool)
    }

    /// What a message means for the channel.
    enum Outcome: Equatable, Sendable {
        /// The art mode is now this (it changed).
        case changed(Bool)
        /// Our set request with this id was accepted.
        case confirmed(id: String)
        /// The TV answered this request with an `error` event.
        case refused(Asked, id: String, code: String)
        /// The art API's version.
        case version(String)
        /// Replies contradicted the broadcasts twice in a row.
        case wedged
        /// An event that answers none of our requests and is no broadcast we know, by name.
        case unmatched(String)
    }

    /// Requests older than this many are forgotten (the TV never answered them).
    static let maxPending = 16
    /// The TV's own `art_mode_changed`, and `go_to_standby` (the Frame leaving art for standby,
    /// which ha-samsungtv-smart also takes as art mode off).
    static let broadcasts: Set<String> = ["art_mode_changed", "go_to_standby"]

    private(set) var artMode: Bool?
    private var pending: [(id: String, asked: Asked, broadcasts: Int, sentAt: ContinuousClock.Instant)] = []
    private var lastBroadcast: Bool?
    private var broadcastCount = 0
    private var contradictions = 0

    /// `artMode`: what was known before this connection (kept across a reopening).
    init(artMode: Bool? = nil) {
        self.artMode = artMode
    }

    mutating func sent(_ request: SamsungArtRequest, now: ContinuousClock.Instant) {
        let asked: Asked
        switch request {
        case .getArtMode: asked = .status
        case .setArtMode(let on, _): asked = .set(on)
        case .apiVersion(let legacy, _): asked = .version(legacy: legacy)
        }
        pending.append((request.id, asked, broadcastCount, now))
        if pending.count > Self.maxPending { pending.removeFirst(pending.count - Self.maxPending) }
    }

    /// A status request is waiting for its answer.
    var statusPending: Bool { pending.contains { $0.asked == .status } }

    /// A status request has waited longer than `timeout`.
    func statusOverdue(now: ContinuousClock.Instant, timeout: Duration) -> Bool {
        pending.contains { $0.asked == .status && now - $0.sentAt >= timeout }
    }

    /// Whether the set request `id` still waits for its answer.
    func isPending(_ id: String) -> Bool { pending.contains { $0.id == id } }

    /// Takes in one payload from the TV (the caller has checked it came from the TV).
    mutating func receive(_ payload: SamsungArtPayload) -> [Outcome] {
        let matched = payload.requestID.flatMap { id in pending.firstIndex { $0.id == id } }
            .map { pending.remove(at: $0) }
        if Self.broadcasts.contains(payload.event) {
            let on = payload.event == "go_to_standby" ? false : payload.artMode
            guard let on else { return [.unmatched("\(payload.event) \(payload.value ?? "?")")] }
            broadcastCount += 1
            lastBroadcast = on
            contradictions = 0
            var outcomes = adopt(on)
            if let matched, case .set = matched.asked { outcomes.append(.confirmed(id: matched.id)) }
            return outcomes
        }
        guard let matched else { return [.unmatched(payload.event)] }
        if payload.event == "error" {
            return [.refused(matched.asked, id: matched.id, code: payload.errorCode ?? "unknown")]
        }
        switch matched.asked {
        case .set:
            return [.confirmed(id: matched.id)]
        case .version:
            return payload.version.map { [.version($0)] } ?? [.unmatched(payload.event)]
        case .status:
            guard let on = payload.artMode else { return [.unmatched("\(payload.event) \(payload.value ?? "?")")] }
            // Asked before the newest broadcast: the broadcast is the newer word.
            guard matched.broadcasts == broadcastCount else { return [] }
            if let lastBroadcast, lastBroadcast != on {
                contradictions += 1
                return contradictions >= 2 ? [.wedged] : []
            }
            contradictions = 0
            return adopt(on)
        }
    }

    private mutating func adopt(_ on: Bool) -> [Outcome] {
        guard artMode != on else { return [] }
        artMode = on
        return [.changed(on)]
    }
}
