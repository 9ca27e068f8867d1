import Drivers
import Support
import TVModel

/// The production driver factory: one driver per vendor, set up from the configuration.
public struct VendorDriverFactory: DriverFactory {
    /// A configured Samsung TV's remote-channel and UPnP ports (`port_wss`, `port_upnp`);
    /// nil means the default (8002, 9197).
    public struct SamsungPorts: Sendable, Equatable {
        public var secure: UInt16?
        public var upnp: UInt16?

        public init(secure: UInt16? = nil, upnp: UInt16? = nil) {
            self.secure = secure
            self.upnp = upnp
        }
    }

    public let settings: DriverSettings
    /// Per-TV Samsung ports from the configuration, by configured id and by host. They are
    /// not part of `TVIdentity` (which only has the REST port) nor persisted: the
    /// configuration is read at every start, and a TV found by discovery uses the defaults.
    public let samsungPorts: [String: SamsungPorts]
    /// How long a Samsung TV's user has to answer the approval prompt.
    public var samsungApprovalTimeout: Duration = .seconds(30)

    public init(settings: DriverSettings, samsungPorts: [String: SamsungPorts] = [:]) {
        self.settings = settings
        self.samsungPorts = samsungPorts
    }

    /// The settings the drivers take from the configuration (`wol`, `roku`, `samsung`, `tvs`).
    public init(configuration: BridgeConfiguration, logger: Logger) {
        self.init(
            settings: Self.settings(configuration, logger: logger),
            samsungPorts: Self.samsungPorts(configuration))
    }

    public static func settings(_ configuration: BridgeConfiguration, logger: Logger)
        -> DriverSettings
    {
        DriverSettings(
            wolTargets: configuration.wol.targets.map {
                DriverSettings.WakeTarget(host: $0.host, port: $0.port)
            },
            wolRepeat: configuration.wol.repeatCount, rokuECP2: configuration.roku.ecp2.rawValue,
            samsungClientName: configuration.samsung.clientName, samsungApps: configuration.samsung.apps,
            logger: logger)
    }

    static func samsungPorts(_ configuration: BridgeConfiguration) -> [String: SamsungPorts] {
        var ports: [String: SamsungPorts] = [:]
        for tv in configuration.tvs where tv.kind != .roku && (tv.portWSS != nil || tv.portUPnP != nil) {
            let entry = SamsungPorts(secure: tv.portWSS, upnp: tv.portUPnP)
            ports[tv.host] = entry
            if let id = tv.id { ports[id.rawValue] = entry }
        }
        return ports
    }

    /// The vendor `kind` says; with `kind` nil, Roku and Samsung are asked at once (at `port`
    /// when given, else each at its own default port) and the first that answers wins.
    public func probe(host: String, kind: TVKind?, port: UInt16?) async throws(DriverError)
        -> TVDescription
    {
        switch kind {
        case .roku: return try await RokuProbe.describe(host: host, port: port, settings: settings)
        case .samsung: return try await SamsungProbe.describe(host: host, port: port, settings: settings)
        case nil: return try await probeEither(host: host, port: port)
        }
    }

    private func probeEither(host: String, port: UInt16?) async throws(DriverError) -> TVDescription {
        let settings = settings
        let result = await withTaskGroup(of: Result<TVDescription, DriverError>.self) { group in
            for kind in [TVKind.roku, .samsung] {
                group.addTask {
                    do throws(DriverError) {
                        return .success(
                            kind == .roku
                                ? try await RokuProbe.describe(host: host, port: port, settings: settings)
                                : try await SamsungProbe.describe(host: host, port: port, settings: settings))
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

    public func makeDriver(for description: TVDescription, persisted: PersistedTV?) -> any TVDriver {
        switch description.identity.kind {
        case .roku:
            return RokuDriver(description: description, settings: settings)
        case .samsung:
            let identity = description.identity
            let ports = samsungPorts[identity.id.rawValue] ?? samsungPorts[identity.host] ?? SamsungPorts()
            let options = SamsungDriverOptions(
                securePort: ports.secure ?? SamsungRemoteEndpoint.securePort,
                upnpPort: ports.upnp ?? UPnPRenderingControl.defaultPort, token: persisted?.token,
                certificatePin: persisted?.certificatePin, approvalTimeout: samsungApprovalTimeout)
            return SamsungDriver(description: description, settings: settings, options: options)
        }
    }
}
