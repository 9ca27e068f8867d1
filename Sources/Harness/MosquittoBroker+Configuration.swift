import Glibc

extension MosquittoBroker {
    /// The configuration text (mosquitto 2.0 syntax). Security settings are global
    /// (`per_listener_settings false`), so they apply to both listeners.
    var configurationText: String {
        var lines = [
            "# Written by the tv2mqtt test harness.",
            "per_listener_settings false",
            "allow_anonymous \(options.allowAnonymous)",
            "persistence \(options.persistence)",
            "log_dest file \(logPath)",
            "log_type all",
            "connection_messages true",
            "log_timestamp true",
        ]
        if options.persistence { lines.append("persistence_location \(directory.path)/") }
        // mosquitto started as root switches to the `mosquitto` user, which could then not read
        // this 0700 directory; stay root (it only warns).
        if geteuid() == 0 { lines.append("user root") }
        if !options.users.isEmpty { lines.append("password_file \(passwordPath)") }
        if let maxKeepalive = options.maxKeepalive { lines.append("max_keepalive \(maxKeepalive)") }
        if options.plainListener { lines.append("listener \(port) \(host)") }
        if let tls = options.tls, let tlsPort {
            lines += [
                "listener \(tlsPort) \(host)",
                "cafile \(tls.caFile)",
                "certfile \(tls.certFile)",
                "keyfile \(tls.keyFile)",
                "require_certificate \(tls.requireCertificate)",
            ]
            if tls.useIdentityAsUsername { lines.append("use_identity_as_username true") }
        }
        lines += options.extraConfig
        return lines.joined(separator: "\n") + "\n"
    }

    var passwordPath: String { directory.file("passwd") }

    /// Writes `mosquitto.conf` and, when users are configured, the password file (hashed by
    /// `mosquitto_passwd -b`, which writes mosquitto 2.0's PBKDF2-SHA512 `$7$` format).
    func writeConfiguration() async throws(HarnessError) {
        try FileText.write(configurationText, to: configPath)
        var first = true
        for (user, password) in options.users.sorted(by: { $0.key < $1.key }) {
            let arguments = ["-b"] + (first ? ["-c"] : []) + [passwordPath, user, password]
            try await ChildProcess.runChecked("mosquitto_passwd", arguments, timeout: .seconds(10))
            first = false
        }
    }
}
