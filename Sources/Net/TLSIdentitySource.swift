import Support
import Synchronization

/// Where this process's own TLS identity comes from (the client certificate an Android TV pins):
/// read or made on first use, then the same for the process's life. Making an RSA key costs
/// OpenSSL tens to hundreds of milliseconds, so it runs as `BlockingWork`, and a process that
/// never meets a TV that wants a client certificate never pays it.
public final class TLSIdentitySource: Sendable {
    public typealias Make = @Sendable () throws -> TLSIdentity

    private let make: Make
    private let made = Mutex<TLSIdentity?>(nil)
    /// Callers waiting while the first one makes it: they share its result.
    private let making = AsyncLock()

    public init(_ make: @escaping Make) { self.make = make }

    /// An identity that is not kept anywhere: a fresh RSA-2048 certificate per process.
    public static func ephemeral(commonName: String) -> TLSIdentitySource {
        TLSIdentitySource { try TLSIdentity.generateRSA(commonName: commonName) }
    }

    /// Always `identity` (tests, and callers that hold one already).
    public static func fixed(_ identity: TLSIdentity) -> TLSIdentitySource {
        let source = TLSIdentitySource { identity }
        source.made.withLock { $0 = identity }
        return source
    }

    /// The identity; the error of reading or making it otherwise (tried again on the next call).
    public func identity() async throws -> TLSIdentity {
        if let identity = made.withLock({ $0 }) { return identity }
        await making.lock()
        defer { making.unlock() }
        if let identity = made.withLock({ $0 }) { return identity }
        let make = make
        let identity = try await BlockingWork.run { Result { try make() } }.get()
        made.withLock { $0 = identity }
        return identity
    }
}
