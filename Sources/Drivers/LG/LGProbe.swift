import Clients
import Net
import Support
import TVModel
import Wire

/// Asks a host whether it is an LG webOS TV: the SSAP WebSocket must open (TLS on 3001, or
/// in clear on 3000 for TVs without TLS) and answer `hello` with the TV's identity (its UUID,
/// webOS version). Nothing is registered, so no prompt shows.
enum LGProbe {
    static let searchTarget = "urn:lge-com:service:webos-second-screen:1"

    static func describe(
        host: String, port: UInt16?, settings: DriverSettings, plainPort: UInt16 = LGPorts.plain,
        descriptionPort: UInt16 = LGDeviceDescription.defaultPort
    ) async throws(DriverError) -> TVDescription {
        // A TV known on its port in clear (one that had no TLS when it was found) is asked on TLS first.
        let securePort = port.flatMap { $0 == plainPort ? nil : $0 } ?? LGPorts.secure
        let bracketed = host.contains(":") ? "[\(host)]" : host
        var connected: WebSocketClient.Connected
        // The port that answered is the description's: 3000 only for a TV that refused TLS, so a
        // TV once found on TLS is never reached in clear (`LGVendor`'s allow_cleartext).
        var answered = securePort
        do {
            connected = try await open("wss://\(bracketed):\(securePort)/", settings: settings)
        } catch let error where error.kind == .connect {
            do {
                connected = try await open("ws://\(bracketed):\(plainPort)/", settings: settings)
                answered = plainPort
            } catch {
                throw DriverError(.unreachable, "no LG TV at \(host): \(error.message)")
            }
        } catch {
            throw DriverError(
                error.kind == .timeout ? .timeout : .unreachable, "no LG TV at \(host): \(error.message)")
        }
        let hello = await Self.hello(connected.connection, timeout: settings.requestTimeout)
        _ = try? await connected.connection.close()
        guard let hello else {
            throw DriverError(.badResponse, "\(host) opened a WebSocket but did not answer SSAP hello")
        }
        let upnp = await LGDeviceDescription.fetch(
            host: host, port: descriptionPort, timeout: settings.connectTimeout)
        return description(hello: hello, upnp: upnp, host: host, port: answered)
    }

    private static func open(_ url: String, settings: DriverSettings) async throws(WebSocketError)
        -> WebSocketClient.Connected
    {
        try await WebSocketClient.connect(
            url: url, tls: TLSConfiguration(trust: .selfSigned(pinned: nil)),
            connectTimeout: settings.connectTimeout, handshakeTimeout: settings.requestTimeout,
            configuration: WebSocketConfiguration(maxMessageSize: 64 * 1024))
    }

    /// Sends `hello` and returns the answer's payload, or nil when none comes in time.
    private static func hello(_ connection: WebSocketConnection, timeout: Duration) async
        -> JSONValue?
    {
        do {
            try await connection.send(text: LGMessage.encode(type: "hello", id: "hello_0", payload: [:]))
        } catch {
            return nil
        }
        let answer = await withDeadline(LoopClock.current.now + timeout) { () -> JSONValue? in
            for await message in connection.incoming {
                guard case .text(let text) = message else {
                    if case .closed = message { return nil } else { continue }
                }
                if let decoded = try? LGMessage.decode(Array(text.utf8)), decoded.type == "hello" {
                    return decoded.payload
                }
            }
            return nil
        }
        _ = try? await connection.close()
        return answer ?? nil
    }

    /// The identity `hello` gives (the UUID, the id; the webOS version), with the name and
    /// model of the UPnP description when it was read (else the model comes once registered).
    static func description(hello: JSONValue, upnp: LGDeviceDescription?, host: String, port: UInt16)
        -> TVDescription
    {
        let uuid = (hello["deviceUUID"]?.stringValue ?? upnp?.uuid).map(TVDescription.boundedName)
        let id = uuid.flatMap { TVID(kind: .lg, hardwareID: $0) } ?? TVID(kind: .lg, hardwareID: host)!
        let version =
            (hello["deviceOSReleaseVersion"]?.stringValue ?? hello["deviceOSVersion"]?.stringValue).map(
                TVDescription.boundedName)
        let identity = TVIdentity(
            id: id, kind: .lg, name: upnp?.friendlyName ?? "LG webOS TV", manufacturer: "LG",
            model: upnp?.modelName,
            serialNumber: uuid, softwareVersion: version.map { "webOS \($0)" }, host: host, port: port)
        return TVDescription(
            identity: identity, capabilities: Vendor.lg.placeholderCapabilities.lgPaired)
    }
}

extension TVCapabilities {
    /// What every webOS TV does once paired (lists filled in as they are read).
    var lgPaired: TVCapabilities {
        var capabilities = self
        capabilities.power = true
        capabilities.volumeKeys = true
        capabilities.volumeLevel = true
        capabilities.muteState = true
        capabilities.inputState = true
        capabilities.keyboard = true
        capabilities.channels = true
        capabilities.channelInfo = true
        capabilities.pairing = true
        capabilities.pairingPIN = true
        capabilities.screenControl = true
        capabilities.soundOutputs = LGSoundOutputs.known
        capabilities.toast = true
        capabilities.appIcons = true
        return capabilities
    }
}
