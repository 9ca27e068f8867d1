import Glibc
import Support
import TVModel
import Wire

/// What survives a restart (SPEC §7): every known TV with what was learned about it.
public struct PersistedState: Equatable, Sendable {
    public var version = 1
    public var tvs: [PersistedTV] = []

    public init(tvs: [PersistedTV] = []) { self.tvs = tvs }
}

public struct PersistedTV: Equatable, Sendable {
    public var identity: TVIdentity
    public var capabilities: TVCapabilities?
    /// App name → id, in display order.
    public var apps: [AppEntry]?
    /// Samsung: the remote-control token the TV issued (a secret: never logged).
    public var token: String?
    /// Samsung: SHA-256 of the TV's certificate, hex, pinned on first use.
    public var certificatePin: String?
    /// Unix time the TV last answered.
    public var lastSeen: Double?

    public init(identity: TVIdentity, capabilities: TVCapabilities? = nil, apps: [AppEntry]? = nil) {
        self.identity = identity
        self.capabilities = capabilities
        self.apps = apps
    }
}

public struct AppEntry: Equatable, Sendable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// Reads and writes `state.json` in the state directory, atomically.
///
/// A file that cannot be parsed is moved aside (`state.json.corrupt-<time>`) and reported,
/// never silently discarded; the bridge then starts with no TVs and rediscovers them.
public struct StateStore: Sendable {
    public let directory: String
    let logger: Logger

    public var path: String { directory + "/state.json" }

    public init(directory: String, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// `configured`, or `/var/lib/tv2mqtt` when writable, else `./tv2mqtt-state`.
    public static func resolveDirectory(_ configured: String?) -> String {
        if let configured { return configured }
        return FileSystem.isWritableDirectory("/var/lib/tv2mqtt") ? "/var/lib/tv2mqtt" : "./tv2mqtt-state"
    }

    public func load() -> PersistedState {
        removeStaleTemporaryFiles()
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.read(path)
        } catch {
            logger.error("cannot read the state file; starting without known TVs", [("error", "\(error)")])
            return PersistedState()
        }
        guard let bytes else { return PersistedState() }
        do {
            return try PersistedState(
                json: JSONParser.parse(bytes, limits: JSONLimits(maxDepth: 16, maxBytes: 16 << 20)))
        } catch {
            let aside = "\(path).corrupt-\(Int(wallClockSeconds()))"
            let moved = (try? FileSystem.rename(path, to: aside)) != nil
            logger.error(
                "the state file is corrupt; \(moved ? "moved it aside" : "could not move it aside") and starting without known TVs",
                [("path", path), ("moved_to", moved ? aside : "-"), ("error", "\(error)")])
            return PersistedState()
        }
    }

    /// Deletes the temporary files (`state.json.tmp-<pid>`, see `FileSystem.writeAtomically`)
    /// that runs killed in the middle of a write left behind. Each name carries its writer's
    /// pid, so every crash would leave one more, forever; they may also hold Samsung tokens.
    /// A file whose process still runs (another command on this directory, mid-write) stays.
    func removeStaleTemporaryFiles() {
        let prefix = "state.json.tmp-"
        var removed = 0
        for name in FileSystem.list(directory) where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) == 0 || errno != ESRCH { continue }
            if unlink(directory + "/" + name) == 0 { removed += 1 }
        }
        if removed > 0 {
            logger.info(
                "removed \(removed) temporary state file\(removed == 1 ? "" : "s") left by an interrupted write",
                [("directory", directory)])
        }
    }

    /// Writes `state` (mode 0600: it holds Samsung tokens).
    public func save(_ state: PersistedState) throws(FileError) {
        try FileSystem.makeDirectory(directory)
        try FileSystem.writeAtomically(path, Array(state.json.prettyPrinted().utf8) + [0x0A], mode: 0o600)
    }
}
