import Clients
import TVModel

/// The production driver factory: one driver per vendor. The bridge sets it up from its
/// configuration (`VendorDriverFactory+Configuration.swift` in Bridge).
public struct VendorDriverFactory: DriverFactory {
    /// A configured Samsung TV's remote-channel and UPnP ports (`port_wss`, `port_upnp`);
    /// nil means the default (8002, 9197).
    public struct SamsungPorts: Sendable, Equatable {
        public var secure: UInt16?
        public var upnp: UInt16?
        /// The TV's own `inputs` (`tvs[].inputs`), instead of `samsung.inputs`.
        public var inputs: [String: [String]]?

        public init(secure: UInt16? = nil, upnp: UInt16? = nil, inputs: [String: [String]]? = nil) {
            self.secure = secure
            self.upnp = upnp
            self.inputs = inputs
        }
    }

    public let settings: DriverSettings
    /// Per-TV Samsung ports from the configuration, by configured id and by host. They are
    /// not part of `TVIdentity` (which only has the REST port) nor persisted: the
    /// configuration is read at every start, and a TV found by discovery uses the defaults.
    public let samsungPorts: [String: SamsungPorts]
    /// How long a Samsung TV's user has to answer the approval prompt.
    public var samsungApprovalTimeout: Duration = .seconds(30)
    /// Where Samsung TVs' UPnP events arrive (`samsung.events`); nil: volume and mute are polled.
    public var samsungEventListener: GENANotifyListener?

    public init(settings: DriverSettings, samsungPorts: [String: SamsungPorts] = [:]) {
        self.settings = settings
        self.samsungPorts = samsungPorts
    }

    /// The vendor `kind` says; with `kind` nil, every vendor is asked at once (at `port` when
    /// given, else each at its own default port) and the first that answers wins.
    public func probe(host: String, kind: TVKind?, port: UInt16?) async throws(DriverError)
        -> TVDescription
    {
        guard let kind else { return try await probeEither(host: host, port: port) }
        return try await Self.describe(kind, host: host, port: port, settings: settings)
    }

    /// Who the device at `host` is, asked as a TV of `kind`: one line per vendor.
    static func describe(_ kind: TVKind, host: String, port: UInt16?, settings: DriverSettings)
        async throws(DriverError) -> TVDescription
    {
        switch kind {
        case .roku: return try await RokuProbe.describe(host: host, port: port, settings: settings)
        case .samsung:
            do {
                return try await SamsungProbe.describe(host: host, port: port, settings: settings)
            } catch {
                // Refused or not a Tizen REST API: maybe a pre-2016 or an encrypted 2014–2015 one.
                // (A host that lets connections time out is not there at all.)
                guard error.kind != .timeout else { throw error }
                return try await SamsungLegacyProbe.describeAfter(error, host: host, restPort: port, settings: settings)
            }
        case .samsungLegacy: return try await SamsungLegacyProbe.describe(host: host, port: port, settings: settings)
        }
    }

    private func probeEither(host: String, port: UInt16?) async throws(DriverError) -> TVDescription {
        let settings = settings
        let result = await withTaskGroup(of: Result<TVDescription, DriverError>.self) { group in
            // A legacy Samsung is found by the Samsung probe (its fallback), not on its own:
            // a bare TCP connect would claim any device listening on the port being probed.
            for kind in TVKind.allCases where kind != .samsungLegacy {
                group.addTask {
                    do throws(DriverError) {
                        return .success(try await Self.describe(kind, host: host, port: port, settings: settings))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var failures: [DriverError] = []
            for await result in group {
                switch result {
                case .success:
                    group.cancelAll()
                    return result
                case .failure(let error): failures.append(error)
                }
            }
            // The most telling failure: a device that answered wrongly beats silence.
            let error =
                failures.first { $0.kind != .unreachable && $0.kind != .timeout } ?? failures.first
                ?? DriverError(.unreachable, "no TV answered at \(host)")
            return .failure(error)
        }
        return try result.get()
    }

    public func makeDriver(for description: TVDescription, secrets: TVSecrets) -> any TVDriver {
        switch description.identity.kind {
        case .roku:
            return RokuDriver(description: description, settings: settings)
        case .samsung:
            let identity = description.identity
            let ports = samsungPorts[identity.id.rawValue] ?? samsungPorts[identity.host] ?? SamsungPorts()
            let options = SamsungDriverOptions(
                securePort: ports.secure ?? SamsungRemoteEndpoint.securePort,
                upnpPort: ports.upnp ?? UPnPRenderingControl.defaultPort, token: secrets.token,
                certificatePin: secrets.certificatePin, approvalTimeout: samsungApprovalTimeout,
                eventListener: samsungEventListener)
            var settings = settings
            if let inputs = ports.inputs { settings.samsungInputs = inputs }
            return SamsungDriver(description: description, settings: settings, options: options)
        case .samsungLegacy:
            return SamsungLegacyDriver(
                description: description, settings: settings, approvalTimeout: samsungApprovalTimeout,
                clientID: secrets.installationID)
        }
    }
}
