import Drivers
import MQTTInterface
import Net
import Support
import TVModel

/// Tracks one TV's availability and state: the one owner of what its retained `availability`
/// and `state` topics hold (README › MQTT topics and commands: state on change) and of the
/// events their changes raise (`tv_lost`, `limited_mode`).
///
/// Each snapshot is compared once with the one the state topic was last made from; the state
/// document is built only when it changed, and `BridgePublisher` keeps the one copy of it
/// (to send again after a reconnect) without comparing again. Pure bookkeeping: the agent
/// sends what `update` returns (`BridgeContext.publish(_:of:)`).
struct TVStateTracker {
    /// What one snapshot changes on the broker; all nil when it changes nothing.
    struct Changes: Equatable {
        /// "online" or "offline", when availability changed.
        var availability: String?
        /// The new state document, when it changed.
        var state: [UInt8]?
        /// The TV stopped answering.
        var lost: BridgeEvent?
        /// The TV turned limited, or says so in other words.
        var limited: BridgeEvent?
    }

    let id: TVID
    /// The latest snapshot: the state topic was made from it (but for `unreachableHint`,
    /// which the document leaves out).
    private(set) var snapshot = TVSnapshot(reachable: false)
    /// When the TV last answered (wall-clock seconds).
    private(set) var lastSeen: Double?
    private var availability: Bool?
    /// The description's part of the state document, as last published; nil before the first.
    private var publishedFrom: (host: String, reportsInput: Bool)?
    /// When the `limited_mode` event was last emitted, and with which words.
    private var limitedNotice = LimitedNotice()

    init(id: TVID, lastSeen: Double? = nil) {
        self.id = id
        self.lastSeen = lastSeen
    }

    /// Takes a new snapshot of the TV `description` describes; `limitedModeMessage` is the
    /// driver's words for a limited TV that gives none, `now` the wall clock.
    mutating func update(
        _ new: TVSnapshot, description: TVDescription, limitedModeMessage: String,
        now: Double = LoopClock.current.wallSeconds
    ) -> Changes {
        let previous = snapshot
        snapshot = new
        if new.reachable { lastSeen = now }
        var changes = Changes()
        let host = description.identity.host
        let reportsInput = description.capabilities.inputState
        var stateChanged =
            publishedFrom.map { $0.host != host || $0.reportsInput != reportsInput } ?? true
            || !Self.sameDocument(previous, new)
        if availability != new.reachable {
            availability = new.reachable
            changes.availability = new.reachable ? "online" : "offline"
            if !new.reachable && previous.reachable {
                // The driver knows its vendor's likely causes, when it has an idea.
                let hint = new.unreachableHint.map { ": " + $0 } ?? ""
                changes.lost = BridgeEvent(
                    .tvLost, tv: id.rawValue, message: "\(description.identity.name) stopped answering\(hint)"
                )
            }
            stateChanged = true  // refresh last_seen with the availability change
        }
        if stateChanged {
            publishedFrom = (host, reportsInput)
            changes.state = StateDocument.json(
                new, host: host, reportsInput: reportsInput, lastSeen: lastSeen
            )
            .serializedBytes()
        }
        if new.limitedMode == true
            && (previous.limitedMode != true || previous.limitedReason != new.limitedReason)
        {
            let message = new.limitedReason ?? limitedModeMessage
            if limitedNotice.shouldSay(message) {
                changes.limited = BridgeEvent(.limitedMode, tv: id.rawValue, message: message)
            }
        }
        return changes
    }

    /// Whether two snapshots make the same state document but for `last_seen`: all they hold
    /// but `unreachableHint`, which only the `tv_lost` event names.
    private static func sameDocument(_ old: TVSnapshot, _ new: TVSnapshot) -> Bool {
        var old = old
        var new = new
        old.unreachableHint = nil
        new.unreachableHint = nil
        return old == new
    }
}
