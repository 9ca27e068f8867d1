import CSystem
import Glibc

/// glibc's malloc arenas (issue 18).
///
/// glibc gives each thread that meets contention an arena of its own, up to eight per core.
/// On Swift's thread pool, tasks moved between threads, so a TV's memory was allocated in one
/// arena and freed from another, and every arena kept its own free pages: with 5,000 TVs the
/// bridge held 352 MB, with one arena 284 MB (`tvbench fleet --fleet-size 5000`, back to back;
/// CPU 18.7 % and 18.9 %). The tasks now run on the event loop's thread, but Dispatch's
/// threads (timers, name lookups, the state file) and `TV2MQTT_EXECUTOR=pool` still allocate;
/// the bridge's threads spend little time in malloc, so the contention one arena adds does not show.
public enum MallocArenas {
    /// One arena for the whole process, unless the operator set `glibc.malloc.arena_max` in
    /// GLIBC_TUNABLES (then theirs stands).
    public static func useOne() {
        if let tunables = getenv("GLIBC_TUNABLES"), String(cString: tunables).contains("arena_max") { return }
        _ = csys_malloc_arena_max(1)
    }
}
