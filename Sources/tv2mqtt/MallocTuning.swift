import CSystem
import Glibc

/// How `tv2mqtt` sets up glibc's malloc, first thing, for whichever command runs (the bridge
/// is the one it matters for). Each setting stands unless the operator set the same one in
/// GLIBC_TUNABLES (then theirs does).
enum MallocTuning {
    /// The size from which a block gets an mmap of its own: glibc's default starting value.
    static let mmapThresholdBytes: Int32 = 128 * 1024

    static func apply() {
        useOneArena()
        fixMmapThreshold()
    }

    /// One arena for the whole process.
    ///
    /// glibc gives each thread that meets contention an arena of its own, up to eight per core,
    /// and each arena keeps its own free pages. Dispatch's threads (name lookups, the state
    /// file) and `TV2MQTT_EXECUTOR=pool` allocate beside the event loop, so a TV's memory could
    /// be allocated in one arena and freed in another; the bridge's threads spend little time
    /// in malloc, so the contention one arena adds does not show.
    static func useOneArena() {
        guard !operatorTuned("arena_max") else { return }
        _ = csys_malloc_arena_max(1)
    }

    /// Blocks of `mmapThresholdBytes` and more always get an mmap of their own, given back to
    /// the kernel when freed.
    ///
    /// glibc starts there, but raises the threshold to the size of every such block freed (up
    /// to 32 MB), so after the first few the large, short-lived buffers of a start-up burst
    /// (the `bridge/tvs` list, a megabyte at 5,000 TVs, and the JSON and outbox buffers around
    /// it) came from the heap, between blocks that live on; the holes they left are rarely
    /// returned. Setting the threshold turns that adjustment off.
    static func fixMmapThreshold() {
        guard !operatorTuned("mmap_threshold") else { return }
        _ = csys_malloc_mmap_threshold(mmapThresholdBytes)
    }

    private static func operatorTuned(_ tunable: String) -> Bool {
        guard let tunables = getenv("GLIBC_TUNABLES") else { return false }
        return String(cString: tunables).contains(tunable)
    }
}
