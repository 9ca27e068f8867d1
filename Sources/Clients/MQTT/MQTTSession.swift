import Net
import Wire

/// The client side of an MQTT 3.1.1 session, as a pure state machine.
///
/// It does no I/O and reads no clock: the driver (the client actor) reports events —
/// connection opened or closed, packet received, time passed, application requests — and
/// carries out the returned actions in order. Instants come in as parameters, so tests run
/// the protocol without sockets or sleeps.
///
/// ```swift
/// var session = try MQTTSession(configuration: .init(clientID: "tv2mqtt_home"))
/// perform(session.connectionOpened(now: LoopClock.current.now))          // sends CONNECT
/// perform(session.received(packet, now: LoopClock.current.now))          // for every decoded packet
/// perform(session.tick(now: LoopClock.current.now))                      // at session.nextDeadline
/// ```
///
/// Session state (packet identifiers in use, QoS 1/2 messages in flight in both
/// directions) outlives a connection, because §4.4 redelivery spans reconnects. After a
/// reconnect, unacknowledged PUBLISH packets are resent with DUP=1 and their original ids,
/// and PUBREL for those past PUBREC, in their original order [MQTT-4.4.0-1], followed by
/// unacknowledged SUBSCRIBE and UNSUBSCRIBE. This is done with a clean session too: the
/// broker then treats them as new messages, and the application is still waiting for their
/// completion (a QoS 1/2 publish is at-least-once from its point of view).
public struct MQTTSession: Sendable {
    /// Change it with `updateConfiguration(_:)`; it takes effect at the next `connectionOpened(now:)`.
    public private(set) var configuration: MQTTSessionConfiguration

    enum State: Equatable, Sendable {
        /// No network connection.
        case disconnected
        /// CONNECT sent; nothing else is allowed from the server before CONNACK [MQTT-3.2.0-1].
        case awaitingConnAck(deadline: ContinuousClock.Instant)
        /// CONNACK accepted the connection.
        case connected
        /// `closeConnection` was returned; everything is ignored until `connectionClosed()`.
        case closing
    }

    private(set) var state: State = .disconnected
    /// When the last packet was handed to the driver: keep-alive counts send silence (§3.1.2.10).
    var lastSent: ContinuousClock.Instant?
    /// When the last packet came from the server. Receive silence counts too (as in
    /// libmosquitto): a client that publishes all the time would otherwise never ping, and a
    /// half-open connection would go unnoticed while everything it sends is lost.
    var lastReceived: ContinuousClock.Instant?
    /// Set while a PINGREQ awaits its PINGRESP.
    private var pingDeadline: ContinuousClock.Instant?

    /// Everything that holds a packet identifier until acknowledged [MQTT-2.3.1-2].
    var outstanding: [UInt16: Outstanding] = [:]
    /// Orders `outstanding` for redelivery, so resends keep their original order (§4.6).
    var nextOrder: UInt64 = 0
    /// Where the search for a free identifier starts: one past the last one handed out.
    var nextPacketID: UInt16 = 1
    /// Inbound QoS 2 ids that got PUBREC but no PUBREL yet (§4.3.3, method B).
    var inboundQoS2: Set<UInt16> = []

    /// An operation waiting for the server's acknowledgement.
    struct Outstanding: Sendable {
        enum Kind: Sendable {
            /// QoS 1 awaiting PUBACK, or QoS 2 awaiting PUBREC.
            case publish(MQTTPublish)
            /// QoS 2 past PUBREC: PUBREL sent, awaiting PUBCOMP.
            case release
            case subscribe(MQTTSubscribe)
            case unsubscribe(MQTTUnsubscribe)
        }

        let order: UInt64
        var kind: Kind
    }

    /// - Throws: `MQTTSessionError.invalidPacket` when the configuration cannot make a valid
    ///   CONNECT (a password without a user name, an empty client id without a clean session…).
    public init(configuration: MQTTSessionConfiguration) throws(MQTTSessionError) {
        try Self.validate(configuration)
        self.configuration = configuration
    }

    /// Replaces the configuration (new credentials, say) for the next connection; session
    /// state is kept. Changing `clientID` makes the stored state meaningless: call
    /// `abandonOutstanding()` too.
    /// - Throws: `MQTTSessionError.invalidPacket`, as `init(configuration:)`; nothing changes then.
    public mutating func updateConfiguration(_ configuration: MQTTSessionConfiguration)
        throws(MQTTSessionError)
    {
        try Self.validate(configuration)
        self.configuration = configuration
    }

    private static func validate(_ configuration: MQTTSessionConfiguration) throws(MQTTSessionError) {
        do {
            _ = try MQTTPacket.connect(configuration.connectPacket).encodedSize()
        } catch {
            throw .invalidPacket(error)
        }
    }

    /// Whether CONNACK has accepted the current connection.
    public var isConnected: Bool { state == .connected }

    /// Operations holding a packet identifier: QoS 1/2 publishes, subscribes, unsubscribes.
    public var inFlightCount: Int { outstanding.count }

    /// When `tick(now:)` must next be called: the CONNACK deadline, the PINGRESP deadline,
    /// or the moment the keep-alive interval of send or receive silence ends. `nil` when no
    /// timer runs.
    public var nextDeadline: ContinuousClock.Instant? {
        switch state {
        case .awaitingConnAck(let deadline):
            return deadline
        case .connected:
            if let pingDeadline { return pingDeadline }
            guard let interval = configuration.keepAliveInterval, let silentSince else { return nil }
            return silentSince + interval
        case .disconnected, .closing:
            return nil
        }
    }

    // MARK: - Connection events

    /// The network connection (TCP, TLS) is up: send CONNECT (§3.1).
    ///
    /// With a clean session, inbound QoS 2 state is forgotten (§3.1.2.4); outbound state is
    /// kept for redelivery after CONNACK (see the type's discussion).
    public mutating func connectionOpened(now: ContinuousClock.Instant) -> [MQTTSessionAction] {
        if configuration.cleanSession { inboundQoS2.removeAll() }
        state = .awaitingConnAck(deadline: now + configuration.connAckTimeout)
        pingDeadline = nil
        lastSent = now
        lastReceived = now
        return [.send(.connect(configuration.connectPacket))]
    }

    /// The network connection is gone (closed by either side, or failed).
    public mutating func connectionClosed() {
        state = .disconnected
        pingDeadline = nil
        lastSent = nil
        lastReceived = nil
    }

    /// Ends the session cleanly: DISCONNECT, then close; the server discards the will (§3.14).
    ///
    /// Outstanding operations are kept (a later connection resends them); call
    /// `abandonOutstanding()` to give up on them.
    public mutating func disconnect() -> [MQTTSessionAction] {
        switch state {
        case .connected, .awaitingConnAck:
            close(.disconnectRequested, first: .send(.disconnect))
        case .disconnected, .closing:
            []
        }
    }

    /// Forgets every outstanding operation and inbound QoS 2 state, returning the ids whose
    /// completion will now never be reported, in the order they were started.
    public mutating func abandonOutstanding() -> [UInt16] {
        let ids = outstanding.sorted { $0.value.order < $1.value.order }.map(\.key)
        outstanding.removeAll()
        inboundQoS2.removeAll()
        return ids
    }

    /// Time has passed: fail a late CONNACK or PINGRESP, or send PINGREQ after keep-alive
    /// seconds without sending or without receiving anything (§3.1.2.10). Only one PINGREQ is
    /// outstanding at a time, and only its PINGRESP answers it: other traffic from the server
    /// does not prove the path works now.
    public mutating func tick(now: ContinuousClock.Instant) -> [MQTTSessionAction] {
        switch state {
        case .awaitingConnAck(let deadline):
            return now >= deadline ? close(.connAckTimeout) : []
        case .connected:
            if let pingDeadline {
                return now >= pingDeadline ? close(.pingTimeout) : []
            }
            guard let interval = configuration.keepAliveInterval, let silentSince,
                now >= silentSince + interval
            else {
                return []
            }
            pingDeadline = now + configuration.pingTimeout
            return send(.pingReq, now: now)
        case .disconnected, .closing:
            return []
        }
    }

    // MARK: - Inbound packets

    /// A packet arrived from the server.
    ///
    /// Before CONNACK, anything else is a protocol violation [MQTT-3.2.0-1]; so is a second
    /// CONNACK, or a packet only clients send. Acknowledgements for unknown ids, or for an id
    /// used by a different kind of operation, are ignored and free nothing.
    public mutating func received(_ packet: MQTTPacket, now: ContinuousClock.Instant)
        -> [MQTTSessionAction]
    {
        switch state {
        case .disconnected, .closing:
            return []
        case .awaitingConnAck:
            lastReceived = now
            guard case .connAck(let connAck) = packet else {
                return close(
                    .protocolViolation("\(packet.typeName) received before CONNACK [MQTT-3.2.0-1]"))
            }
            return receivedConnAck(connAck, now: now)
        case .connected:
            lastReceived = now
        }
        switch packet {
        case .publish(let publish): return receivedPublish(publish, now: now)
        case .pubAck(let id): return receivedPubAck(id)
        case .pubRec(let id): return receivedPubRec(id, now: now)
        case .pubRel(let id): return receivedPubRel(id, now: now)
        case .pubComp(let id): return receivedPubComp(id)
        case .subAck(let subAck): return receivedSubAck(subAck)
        case .unsubAck(let id): return receivedUnsubAck(id)
        case .pingResp:
            pingDeadline = nil
            return []
        case .connAck:
            return close(.protocolViolation("second CONNACK on one connection"))
        case .connect, .subscribe, .unsubscribe, .pingReq, .disconnect:
            return close(.protocolViolation("server sent \(packet.typeName), which only clients send"))
        }
    }

    private mutating func receivedConnAck(_ connAck: MQTTConnAck, now: ContinuousClock.Instant)
        -> [MQTTSessionAction]
    {
        guard connAck.returnCode == .accepted else {
            return close(
                .connectionRefused(connAck.returnCode), first: .connectRefused(connAck.returnCode))
        }
        state = .connected
        // Without a stored session the server will not resend PUBREL for inbound QoS 2.
        if !connAck.sessionPresent { inboundQoS2.removeAll() }
        var actions = redeliveries()
        if !actions.isEmpty { lastSent = now }
        actions.append(.connected(sessionPresent: connAck.sessionPresent))
        return actions
    }

    // MARK: - Helpers

    /// The start of the longer silence, sending or receiving: keep-alive runs from there.
    private var silentSince: ContinuousClock.Instant? {
        guard let lastSent, let lastReceived else { return lastSent ?? lastReceived }
        return min(lastSent, lastReceived)
    }

    /// One packet to send now; sending resets the keep-alive silence.
    mutating func send(_ packet: MQTTPacket, now: ContinuousClock.Instant) -> [MQTTSessionAction] {
        lastSent = now
        return [.send(packet)]
    }

    mutating func close(
        _ reason: MQTTSessionCloseReason, first: MQTTSessionAction? = nil
    ) -> [MQTTSessionAction] {
        state = .closing
        pingDeadline = nil
        if let first { return [first, .closeConnection(reason)] }
        return [.closeConnection(reason)]
    }
}
