import TVModel

extension PersistedState {
    /// Three-way merge of what a writer is about to save (`self`) with what another writer left
    /// on disk (`disk`) since this writer last read or wrote the file (`base`), so that two
    /// processes on one state directory (a running daemon and `tv2mqtt pair`) lose nothing of
    /// each other's (Tests/README.md › Reliability):
    ///
    /// - each field of a TV both hold: the value this writer changed since `base`, else the
    ///   disk's (so a token `pair` saved survives the daemon's next save, and the daemon's own
    ///   changes survive `pair`'s);
    /// - a TV only on disk: kept when the other writer added it, dropped when this writer
    ///   removed it (it was in `base`);
    /// - a TV only here: kept when this writer added or changed it since `base`, dropped when
    ///   the other writer removed it (`pair` holding a stale copy cannot bring back a TV the
    ///   daemon removed meanwhile).
    func merged(disk: PersistedState, base: PersistedState) -> PersistedState {
        let baseTVs = Dictionary(base.tvs.map { ($0.identity.id, $0) }) { first, _ in first }
        let diskTVs = Dictionary(disk.tvs.map { ($0.identity.id, $0) }) { first, _ in first }
        var result = PersistedState()
        // Made once per installation: the first one written stands.
        result.installationID = disk.installationID ?? installationID
        for ours in tvs {
            guard let theirs = diskTVs[ours.identity.id] else {
                if baseTVs[ours.identity.id] != ours { result.tvs.append(ours) }
                continue
            }
            result.tvs.append(ours.merged(theirs: theirs, base: baseTVs[ours.identity.id]))
        }
        let ourIDs = Set(tvs.map(\.identity.id))
        for theirs in disk.tvs where !ourIDs.contains(theirs.identity.id) && baseTVs[theirs.identity.id] == nil {
            result.tvs.append(theirs)
        }
        return result
    }
}

extension PersistedTV {
    func merged(theirs: PersistedTV, base: PersistedTV?) -> PersistedTV {
        // Added by both since base: what this writer knows wins, the other's fills the gaps.
        let base = base ?? PersistedTV(identity: theirs.identity)
        var result = self
        func take<Value: Equatable>(_ field: WritableKeyPath<PersistedTV, Value>) {
            // Ours unchanged since base: the other writer's value stands.
            if self[keyPath: field] == base[keyPath: field] { result[keyPath: field] = theirs[keyPath: field] }
        }
        take(\.identity)
        take(\.capabilities)
        take(\.apps)
        take(\.token)
        take(\.certificatePin)
        take(\.lastSeen)
        return result
    }
}
