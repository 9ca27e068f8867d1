import Glibc

/// Finds an executable the way a shell would, plus the sbin directories: `mosquitto` lives in
/// `/usr/sbin`, which is not on every user's `PATH`.
public enum ExecutableLookup {
    /// `PATH`'s directories, then `/usr/local/sbin`, `/usr/sbin`, `/sbin` (without duplicates).
    public static var searchDirectories: [String] {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        var directories: [String] = []
        for directory in path.split(separator: ":").map(String.init) + ["/usr/local/sbin", "/usr/sbin", "/sbin"]
        where !directory.isEmpty && !directories.contains(directory) {
            directories.append(directory)
        }
        return directories
    }

    /// The absolute path of `name`: returned as is when it contains a `/` and is executable,
    /// else the first executable regular file of that name in `searchDirectories`; nil if none.
    public static func resolve(_ name: String) -> String? {
        if name.contains("/") { return isExecutableFile(name) ? name : nil }
        for directory in searchDirectories {
            let candidate = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Like `resolve`, but throws `HarnessError.executableNotFound` naming the directories searched.
    public static func require(_ name: String) throws(HarnessError) -> String {
        guard let path = resolve(name) else {
            throw .executableNotFound(name: name, searched: name.contains("/") ? [name] : searchDirectories)
        }
        return path
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }
}
