import Drivers
import Net
import Persistence
import Support
import TVModel

extension TVRegistry {
    /// How often the state file is checked for another process's changes (`tv2mqtt pair`
    /// while the daemon runs): one `stat`, off the loop.
    static let stateFileCheckInterval = Duration.seconds(2)

    /// Starts the TVs the state file remembers, then watches the file for changes another
    /// process makes, merging them in (Tests/README.md › Reliability).
    func restoreSaved() async {
        let store = store
        // Reading and parsing up to 16 MiB, and `stat` below: file work, kept off the event
        // loop every TV shares (a slow or hung file system must not stall them).
        var saved = await BlockingWork.run { store.load() }
        let madeID = saved.ensureInstallationID()
        installationID = saved.installationID
        restoring = true
        await restore(saved)
        restoring = false
        if madeID || saveScheduled {
            saveScheduled = false
            scheduleSave()
        }
        watchesStateFile = true
        armStateFileCheck()
    }

    /// One loop timer for the next look at the file, armed again after each look.
    private func armStateFileCheck() {
        LoopClock.current.startTask(at: LoopClock.current.now + Self.stateFileCheckInterval) { [weak self] in
            await self?.checkStateFile()
        }
    }

    private func checkStateFile() async {
        guard watchesStateFile else { return }
        await mergeChangesOnDisk()
        if watchesStateFile { armStateFileCheck() }
    }

    /// The bridge stops: the file is no longer looked at (its last save is the shutdown's).
    func stopWatchingStateFile() {
        watchesStateFile = false
    }

    /// Saves at once (merging) when another process changed the file.
    func mergeChangesOnDisk() async {
        let store = store
        if await BlockingWork.run({ store.changedOnDisk() }) { await saveNow() }
    }

    /// Saves `stateSaveDelay` from now, so a burst of changes is one write: a loop timer, whose
    /// save is skipped when another (the shutdown's) has happened meanwhile.
    func scheduleSave() {
        guard !saveScheduled else { return }
        saveScheduled = true
        LoopClock.current.startTask(at: LoopClock.current.now + context.configuration.stateSaveDelay) {
            [weak self] in
            await self?.scheduledSaveDue()
        }
    }

    private func scheduledSaveDue() async {
        guard saveScheduled else { return }
        await saveNow()
    }

    /// Saves now, one save at a time: the actor is re-entered while the file is written, and
    /// two saves in flight would let the later one write an older snapshot over what the first
    /// merged from another process (a token `tv2mqtt pair` saved). A save asked for meanwhile
    /// runs once more, with a fresh snapshot, and its caller waits for it.
    func saveNow() async {
        guard !restoring else {
            saveScheduled = true  // saved once every remembered TV has started
            return
        }
        saveScheduled = false
        guard !saving else {
            saveAgain = true
            await withCheckedContinuation { saveWaiters.append($0) }
            return
        }
        saving = true
        repeat {
            saveAgain = false
            await writeSnapshot()
        } while saveAgain
        saving = false
        let waiters = saveWaiters
        saveWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    private func writeSnapshot() async {
        var state = PersistedState()
        state.installationID = installationID
        for id in records.keys.sorted() {
            guard var record = records[id] else { continue }
            record.persisted.lastSeen = await record.agent.lastSeen
            state.tvs.append(record.persisted)
        }
        let written: PersistedState
        let store = store
        let saved = await BlockingWork.run { [state] in Result { () throws(FileError) in try store.save(state) } }
        do {
            written = try saved.get()
        } catch {
            context.logger.error(
                "cannot save the state file; will retry on the next change", [("error", "\(error)")])
            return
        }
        await adopt(written, sent: state)
    }

    /// Takes in what the save merged from another process: new secrets go to the driver (used
    /// from its next connection), new TVs start. Only what differs from what was sent came
    /// from disk; a TV removed meanwhile (the awaits above) stays removed.
    private func adopt(_ written: PersistedState, sent: PersistedState) async {
        guard written != sent else { return }
        installationID = written.installationID ?? installationID  // the first one saved stands
        let sentTVs = Dictionary(sent.tvs.map { ($0.identity.id, $0) }) { first, _ in first }
        for tv in written.tvs {
            let id = tv.identity.id
            guard let ours = sentTVs[id] else {
                guard agent(id) == nil else { continue }
                context.logger.info("a TV added by another tv2mqtt process", [("tv", id.rawValue)])
                await add(tv.tvDescription, persisted: tv, announce: true)
                continue
            }
            if tv.token != ours.token || tv.certificatePin != ours.certificatePin {
                await adoptSavedSecrets(id, token: tv.token, certificatePin: tv.certificatePin)
            }
        }
    }

    /// Whether the bridge holds a token or a certificate pin for the TV (never which).
    func holdsSecrets(_ id: TVID) -> Bool {
        guard let record = records[id] else { return false }
        return record.persisted.token != nil || record.persisted.certificatePin != nil
    }
}
