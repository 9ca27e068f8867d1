/// Where and how the mosquitto command-line clients connect: address, credentials, TLS files.
public struct MQTTEndpoint: Sendable {
    public var host: String
    public var port: UInt16
    public var username: String?
    /// Passed on the command line: test credentials only.
    public var password: String?
    /// `--cafile`: setting it makes the clients use TLS and trust this CA.
    public var caFile: String?
    /// `--cert` / `--key`: a client certificate.
    public var certFile: String?
    public var keyFile: String?
    /// `--insecure`: skip the server host name check (the chain is still verified).
    public var insecure: Bool
    /// `-V`: `mqttv311` or `mqttv5`; nil keeps the clients' default.
    public var protocolVersion: String?

    public init(
        host: String = "127.0.0.1", port: UInt16, username: String? = nil, password: String? = nil,
        caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil, insecure: Bool = false,
        protocolVersion: String? = nil
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.insecure = insecure
        self.protocolVersion = protocolVersion
    }

    /// The connection options shared by `mosquitto_pub` and `mosquitto_sub`.
    var arguments: [String] {
        var arguments = ["-h", host, "-p", String(port)]
        if let username { arguments += ["-u", username] }
        if let password { arguments += ["-P", password] }
        if let caFile { arguments += ["--cafile", caFile] }
        if let certFile { arguments += ["--cert", certFile] }
        if let keyFile { arguments += ["--key", keyFile] }
        if insecure { arguments.append("--insecure") }
        if let protocolVersion { arguments += ["-V", protocolVersion] }
        return arguments
    }
}

extension MosquittoBroker {
    /// The plain listener, optionally with credentials.
    public func endpoint(username: String? = nil, password: String? = nil) -> MQTTEndpoint {
        MQTTEndpoint(host: host, port: port, username: username, password: password)
    }

    /// The TLS listener, trusting `caFile`; throws when the broker has no TLS listener.
    public func tlsEndpoint(
        caFile: String, certFile: String? = nil, keyFile: String? = nil, username: String? = nil,
        password: String? = nil
    ) throws(HarnessError) -> MQTTEndpoint {
        guard let tlsPort else { throw .invalidUse("this broker has no TLS listener (MosquittoOptions.tls is nil)") }
        return MQTTEndpoint(
            host: host, port: tlsPort, username: username, password: password, caFile: caFile, certFile: certFile,
            keyFile: keyFile)
    }
}
