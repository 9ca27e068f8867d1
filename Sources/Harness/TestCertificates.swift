/// A certificate authority made for a test: its certificate and private key (PEM files).
public struct CertificateAuthority: Sendable {
    public let commonName: String
    public let certPath: String
    public let keyPath: String
    /// Holds the files; kept alive by this value and the certificates it signs.
    public let directory: TemporaryDirectory
}

/// A certificate signed by a `CertificateAuthority`, and its private key (PEM files).
public struct CertificateFiles: Sendable {
    public let certPath: String
    public let keyPath: String
    public let directory: TemporaryDirectory
}

/// Test PKI made with the `openssl` command: EC P-256 keys, SHA-256 signatures, a CA with
/// `basicConstraints CA:TRUE` and `keyCertSign`, leaves with `CA:FALSE`, the right extended key
/// usage and, for servers, a `subjectAltName` (TLS clients check the host name against the SAN,
/// not the CN). Accepted by mosquitto 2.0 with OpenSSL 3 and by `openssl verify -purpose`.
public enum TestCertificates {
    /// A self-signed CA in `directory` (a new temporary directory when nil), valid ten years.
    public static func makeAuthority(
        commonName: String = "tv2mqtt Test CA", in directory: TemporaryDirectory? = nil
    ) async throws(HarnessError) -> CertificateAuthority {
        let directory = try TemporaryDirectory.reuse(directory, prefix: "certs")
        let name = "ca-\(randomHex(4))"
        let config = directory.file("\(name).cnf")
        try FileText.write(
            requestSection(commonName: commonName) + """
                [ext]
                basicConstraints = critical, CA:TRUE
                keyUsage = critical, keyCertSign, cRLSign
                subjectKeyIdentifier = hash

                """, to: config)
        let authority = CertificateAuthority(
            commonName: commonName, certPath: directory.file("\(name).crt"), keyPath: directory.file("\(name).key"),
            directory: directory)
        try await openssl(
            ["req", "-x509", "-new"] + newKey(authority.keyPath)
                + ["-out", authority.certPath, "-days", "3650", "-sha256", "-config", config, "-extensions", "ext"])
        return authority
    }

    /// A server certificate (`serverAuth`) for the given names, signed by `authority`.
    public static func makeServerCertificate(
        signedBy authority: CertificateAuthority, commonName: String = "localhost",
        ipAddresses: [String] = ["127.0.0.1"], dnsNames: [String] = ["localhost"]
    ) async throws(HarnessError) -> CertificateFiles {
        var alternativeNames = dnsNames.enumerated().map { "DNS.\($0.offset + 1) = \(escaped($0.element))" }
        alternativeNames += ipAddresses.enumerated().map { "IP.\($0.offset + 1) = \($0.element)" }
        var extensions = "keyUsage = critical, digitalSignature, keyEncipherment\nextendedKeyUsage = serverAuth\n"
        if !alternativeNames.isEmpty {
            extensions += "subjectAltName = @alt\n[alt]\n" + alternativeNames.joined(separator: "\n") + "\n"
        }
        return try await makeLeaf(prefix: "server", signedBy: authority, commonName: commonName, extensions: extensions)
    }

    /// A client certificate (`clientAuth`) with the given common name, signed by `authority`.
    public static func makeClientCertificate(
        signedBy authority: CertificateAuthority, commonName: String = "tv2mqtt-test-client"
    ) async throws(HarnessError) -> CertificateFiles {
        try await makeLeaf(
            prefix: "client", signedBy: authority, commonName: commonName,
            extensions: "keyUsage = critical, digitalSignature\nextendedKeyUsage = clientAuth\n")
    }

    private static func makeLeaf(
        prefix: String, signedBy authority: CertificateAuthority, commonName: String, extensions: String
    ) async throws(HarnessError) -> CertificateFiles {
        let directory = authority.directory
        let name = "\(prefix)-\(randomHex(4))"
        let config = directory.file("\(name).cnf")
        let request = directory.file("\(name).csr")
        let files = CertificateFiles(
            certPath: directory.file("\(name).crt"), keyPath: directory.file("\(name).key"), directory: directory)
        // The [ext] header comes first so that a trailing [alt] section does not swallow the rest.
        let ext =
            "[ext]\nbasicConstraints = critical, CA:FALSE\nsubjectKeyIdentifier = hash\n"
            + "authorityKeyIdentifier = keyid, issuer\n" + extensions
        try FileText.write(requestSection(commonName: commonName) + ext, to: config)
        try await openssl(["req", "-new"] + newKey(files.keyPath) + ["-out", request, "-config", config])
        // A random positive serial: certificates from one CA must not share serials.
        try await openssl([
            "x509", "-req", "-in", request, "-CA", authority.certPath, "-CAkey", authority.keyPath,
            "-set_serial", "0x" + randomHex(16, positive: true), "-days", "825", "-sha256",
            "-extfile", config, "-extensions", "ext", "-out", files.certPath,
        ])
        return files
    }

    private static func newKey(_ keyPath: String) -> [String] {
        ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", keyPath]
    }

    private static func requestSection(commonName: String) -> String {
        "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = \(escaped(commonName))\n"
    }

    /// OpenSSL configuration values treat `$`, `#`, `\` and quotes specially.
    private static func escaped(_ value: String) -> String {
        var result = ""
        for character in value {
            if "$#\\\"'".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    private static func randomHex(_ bytes: Int, positive: Bool = false) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { index in
            var byte = UInt8.random(in: 0...255, using: &generator)
            if positive && index == 0 { byte = (byte & 0x7F) | 0x10 }
            return byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }

    private static func openssl(_ arguments: [String]) async throws(HarnessError) {
        try await ChildProcess.runChecked("openssl", arguments, timeout: .seconds(30))
    }
}
