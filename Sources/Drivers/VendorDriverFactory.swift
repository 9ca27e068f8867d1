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

    /// The vendors this factory drives (`Vendors.all` in production).
    public let vendors: [Vendor]
    public let settings: DriverSettings
    /// Per-TV Samsung ports from the configuration, by configured id and by host. They are
    /// not part of `TVIdentity` (which only has the REST port) nor persisted: the
    /// configuration is read at every start, and a TV found by discovery uses the defaults.
    public let samsungPorts: [String: SamsungPorts]
    /// How long a Samsung TV's user has to answer the approval prompt.
    public var samsungApprovalTimeout: Duration = .seconds(30)
    /// Where Samsung TVs' UPnP events arrive (`samsung.events`); nil: volume and mute are polled.
    public var samsungEventListener: GENANotifyListener?

    /// TVs that may be reached in clear (`tvs[].allow_cleartext`), by configured id and by host.
    public var cleartextAllowed: Set<String> = []

    public init(settings: DriverSettings, samsungPorts: [String: SamsungPorts] = [:], vendors: [Vendor] = Vendors.all) {
        self.vendors = vendors
        self.settings = settings
        self.samsungPorts = samsungPorts
    }

    /// Whether the configuration allows `identity`'s TV to be reached in clear.
    public func allowsCleartext(_ identity: TVIdentity) -> Bool {
        cleartextAllowed.contains(identity.id.rawValue) || cleartextAllowed.contains(identity.host)
    }

    /// The vendor `kind` says; with `kind` nil, every vendor probed for an unknown device is
    /// asked at once (at `port` when given, else each at its own default port) and the first
    /// that answers wins.
    public func probe(host: String, kind: TVKind?, port: UInt16?) async throws(DriverError)
        -> TVDescription
    {
        guard let kind else { return try await probeEither(host: host, port: port) }
        guard let vendor = vendors.vendor(kind) else {
            throw DriverError(.unsupported, "no driver for TVs of kind '\(kind)'")
        }
        return try await vendor.describe(host, port, settings)
    }

    private func probeEither(host: String, port: UInt16?) async throws(DriverError) -> TVDescription {
        let settings = settings
        let result = await withTaskGroup(of: Result<TVDescription, DriverError>.self) { group in
            for vendor in vendors where vendor.probedWhenKindUnknown {
                group.addTask {
                    do throws(DriverError) {
                        return .success(try await vendor.describe(host, port, settings))
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

    /// The driver of the description's vendor. The bridge only holds descriptions of the
    /// factory's vendors (probed by it, or loaded and checked against `vendors`).
    public func makeDriver(for description: TVDescription, secrets: TVSecrets) -> any TVDriver {
        guard let vendor = vendors.vendor(description.identity.kind) else {
            preconditionFailure("no vendor for TVs of kind '\(description.identity.kind)'")
        }
        return vendor.makeDriver(description, secrets, self)
    }

    /// A Samsung driver with the TV's configured ports and inputs.
    func samsungDriver(_ description: TVDescription, secrets: TVSecrets) -> any TVDriver {
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
    }
}
