import Glibc
import Net
import Support
import Synchronization
import TVModel
import Wire

/// Reads and writes `state.json` in the state directory, atomically.
///
/// A file that cannot be read or parsed is moved aside (`state.json.corrupt-<time>`,
/// `state.json.unreadable-<time>`) and reported, never silently discarded or overwritten;
/// the bridge then starts with no TVs and rediscovers them.
///
/// Several processes may use one directory (the daemon, `tv2mqtt pair`): each save runs under
/// the directory's lock and, when the file changed since this store last read or wrote it,
/// merges what the other process saved (`PersistedState.merged`) instead of writing over it.
public final class StateStore: Sendable {
    public let directory: String
    /// The kinds of TV a state file may hold.
    let kinds: [StateFileKind]
    let logger: Logger
    /// The file as this store last read or wrote it: the base of the merge.
    private let synced = Mutex<Synced?>(nil)

    struct Synced: Sendable {
        var stamp: FileStamp?
        var state: PersistedState
    }

    static let fileName = "state.json"
    /// State files moved aside that are kept (the newest); older ones are deleted.
    static let keptAsideFiles = 3
    /// The largest state file read (1,000 TVs with their app lists take about 2 MB).
    static let maxFileSize = 16 << 20

    public var path: String { directory + "/" + Self.fileName }

    public init(directory: String, kinds: [StateFileKind], logger: Logger) {
        self.directory = directory
        self.kinds = kinds
        self.logger = logger
    }

    /// `configured`, or `/var/lib/tv2mqtt` when writable, else `./tv2mqtt-state`.
    public static func resolveDirectory(_ configured: String?) -> String {
        if let configured { return configured }
        return FileSystem.isWritableDirectory("/var/lib/tv2mqtt")
            ? "/var/lib/tv2mqtt" : "./tv2mqtt-state"
    }

    /// Refuses an existing state directory that is a link, another user's, or writable by
    /// group or others (`StateDirectory`); one that does not exist yet is created safely later.
    public func checkDirectory() throws(FileError) {
        _ = try StateDirectory.open(directory, create: false)
    }

    public func load() -> PersistedState {
        let opened: StateDirectory?
        do {
            opened = try StateDirectory.open(directory, create: false)
        } catch {
            logger.error(
                "cannot read the state file; starting without known TVs", [("error", "\(error)")])
            return PersistedState()
        }
        guard let opened else {
            synced.withLock { $0 = Synced(stamp: nil, state: PersistedState()) }
            return PersistedState()
        }
        removeStaleTemporaryFiles(opened)
        if opened.isReadableByOthers {
            logger.warning(
                "the state directory can be read by group or others: the files moved aside may hold TV tokens; chmod 700 it",
                [("directory", directory)])
        }
        let (state, stamp) = readOrMoveAside(opened, then: "starting without known TVs")
        synced.withLock { $0 = Synced(stamp: stamp, state: state ?? PersistedState()) }
        return state ?? PersistedState()
    }

    /// Writes `state` (mode 0600: it holds Samsung tokens), merged with what another process
    /// saved since this store last read or wrote the file. Returns what was written.
    @discardableResult
    public func save(_ state: PersistedState) throws(FileError) -> PersistedState {
        guard let opened = try StateDirectory.open(directory, create: true) else { return state }
        try opened.lock()
        let last = synced.withLock { $0 }
        var merged = state
        if let current = opened.stamp(Self.fileName), current != last?.stamp,
            case (let disk?, _) = readOrMoveAside(opened, then: "saving this process's TVs")
        {
            merged = state.merged(disk: disk, base: last?.state ?? PersistedState())
            logger.info(
                "the state file was changed by another tv2mqtt process; merged its changes",
                [("path", path)])
        }
        let stamp = try opened.writeAtomically(Self.fileName, chunks: merged.fileChunks, mode: 0o600)
        synced.withLock { $0 = Synced(stamp: stamp, state: merged) }
        return merged
    }

    /// Whether another process replaced or rewrote the file since this store last read or
    /// wrote it (a `stat`, cheap enough to ask every few seconds).
    public func changedOnDisk() -> Bool {
        guard let last = synced.withLock({ $0 }),
            let opened = (try? StateDirectory.open(directory, create: false)) ?? nil
        else { return false }
        return opened.stamp(Self.fileName) != last.stamp
    }

    /// The parsed file and its stamp; nil when there is none, or when it could not be read or
    /// parsed (then it is moved aside and reported).
    private func readOrMoveAside(_ opened: StateDirectory, then consequence: String) -> (
        PersistedState?, FileStamp?
    ) {
        let read: (bytes: [UInt8], stamp: FileStamp)?
        do {
            read = try opened.read(Self.fileName, limit: Self.maxFileSize)
        } catch {
            moveAside(opened, as: "unreadable", error: "\(error)", then: consequence)
            return (nil, nil)
        }
        guard let read else { return (nil, nil) }
        do {
            let json = try JSONParser.parse(
                read.bytes, limits: JSONLimits(maxDepth: 16, maxBytes: Self.maxFileSize))
            return (try PersistedState(json: json, kinds: kinds), read.stamp)
        } catch {
            moveAside(opened, as: "corrupt", error: "\(error)", then: consequence)
            return (nil, nil)
        }
    }

    /// Moves the state file aside as `state.json.<what>-<seconds>[-<n>]`, the owner's only
    /// (it may hold tokens, whatever mode it had), and deletes all but the newest
    /// `keptAsideFiles` of those files: a file that keeps coming back corrupt must not fill the disk.
    private func moveAside(
        _ opened: StateDirectory, as what: String, error: String, then consequence: String
    ) {
        let seconds = Int(LoopClock.current.wallSeconds)
        let earlier = opened.list().compactMap(Self.asideOrder)
        var attempt = (earlier.filter { $0.seconds == seconds }.map(\.attempt).max() ?? -1) + 1
        var aside: String {
            "\(Self.fileName).\(what)-\(seconds)" + (attempt == 0 ? "" : "-\(attempt)")
        }
        while opened.stamp(aside) != nil { attempt += 1 }  // never over an earlier one
        let moved = (try? opened.rename(Self.fileName, to: aside)) != nil
        if moved {
            opened.restrictToOwner(aside)
            removeOldAsideFiles(opened)
        }
        logger.error(
            "the state file is \(what); \(moved ? "moved it aside" : "could not move it aside") and \(consequence)",
            [("path", path), ("moved_to", moved ? directory + "/" + aside : "-"), ("error", error)])
    }

    static let asideKinds = ["corrupt", "unreadable"]

    /// When a moved-aside file was moved (its name's seconds, then its `-<n>`); nil for any
    /// other name.
    static func asideOrder(_ name: String) -> (seconds: Int, attempt: Int)? {
        for kind in asideKinds where name.hasPrefix("\(fileName).\(kind)-") {
            let parts = name.dropFirst("\(fileName).\(kind)-".count).split(
                separator: "-", omittingEmptySubsequences: false)
            guard parts.count <= 2, let seconds = Int(parts[0]) else { return nil }
            guard parts.count == 2 else { return (seconds, 0) }
            return Int(parts[1]).map { (seconds, $0) }
        }
        return nil
    }

    private func removeOldAsideFiles(_ opened: StateDirectory) {
        let aside = opened.list().compactMap { name in Self.asideOrder(name).map { (name, $0) } }
            .sorted { ($0.1.seconds, $0.1.attempt) > ($1.1.seconds, $1.1.attempt) }
        for (name, _) in aside.dropFirst(Self.keptAsideFiles) where opened.unlink(name) {
            logger.info("deleted an older moved-aside state file", [("path", directory + "/" + name)])
        }
    }

    /// Deletes the temporary files (`state.json.tmp-<pid>-<random>`, see
    /// `StateDirectory.writeAtomically`) that runs killed in the middle of a write left behind:
    /// every crash would leave one more, forever, and they may hold Samsung tokens. A file
    /// whose process still runs (another command on this directory, mid-write) stays.
    func removeStaleTemporaryFiles(_ opened: StateDirectory) {
        let prefix = "\(Self.fileName).tmp-"
        var removed = 0
        for name in opened.list() where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid != getpid()
            else { continue }
            if kill(pid, 0) == 0 || errno != ESRCH { continue }
            if opened.unlink(name) { removed += 1 }
        }
        if removed > 0 {
            logger.info(
                "removed \(removed) temporary state file\(removed == 1 ? "" : "s") left by an interrupted write",
                [("directory", directory)])
        }
    }
}
