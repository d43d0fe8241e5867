/// Which diff lines print while paths are watched (`watch PATH...`): those at or under a watched
/// path, `[*]` matching any index or key. Printing only: expected diff lines, `save` and
/// `--format json` see every line.
@_spi(Engine) public struct WatchFilter: Sendable {
    /// The watched paths as the diff prints them (with the store's alias first when several
    /// stores are loaded).
    let patterns: [ValuePath]

    public func shows(_ entry: DiffEntry) -> Bool {
        patterns.contains { $0.covers(entry.path) }
    }
}

extension Session {
    /// What the diffs print while paths are watched; `nil` when none is (every line prints).
    public var watchFilter: WatchFilter? {
        guard !watches.isEmpty else { return nil }
        let prefixed = stores.count > 1
        var patterns: [ValuePath] = []
        for watch in watches {
            if prefixed {
                patterns.append(ValuePath([.key(watch.alias)] + watch.path.segments))
            } else if stores.first?.alias == watch.alias {
                patterns.append(watch.path)
            }
        }
        return WatchFilter(patterns: patterns)
    }

    func watch(_ paths: [ValuePath]) throws(ShellError) -> CommandResult {
        guard !paths.isEmpty else { return CommandResult(.watches(watchList)) }
        let store = try activeStore()
        // NB: `[id: X]` is the element that has that id when the watch is set, by its index, as
        // diff lines name it.
        var resolved: [ValuePath] = []
        for path in paths { resolved.append(try path.resolvingIDs(in: store.json)) }
        let paths = resolved
        for path in paths {
            // NB: the place may not exist yet (a todo not added), but its first key must: a
            // misspelt watch would otherwise hide every line without a word.
            if case .key(let key)? = path.segments.first, case .object(let state) = store.json,
                state[key] == nil
            {
                throw ShellError(
                    "no key '\(key)' in the state of '\(store.alias)'",
                    hint: Suggestion.didYouMean(key, among: state.keys)
                        ?? "its keys are: \(state.keys.joined(separator: ", "))")
            }
        }
        for path in paths where !watches.contains(where: { $0.alias == store.alias && $0.path == path }) {
            watches.append((store.alias, path))
        }
        return CommandResult()
    }

    func unwatch(_ paths: [ValuePath]) throws(ShellError) -> CommandResult {
        guard !paths.isEmpty else {
            watches = []
            return CommandResult()
        }
        let alias = try activeStore().alias
        for path in paths where !watches.contains(where: { $0.alias == alias && $0.path == path }) {
            throw ShellError(
                "\(path) is not watched",
                hint: watches.isEmpty ? "nothing is watched" : "watched: \(watchList.joined(separator: ", "))")
        }
        watches.removeAll { watch in watch.alias == alias && paths.contains(watch.path) }
        return CommandResult()
    }

    /// The watches as `watch` lists them: `PATH`, with ` (in ALIAS)` when several stores are loaded.
    private var watchList: [String] {
        watches.map { stores.count > 1 ? "\($0.path) (in \($0.alias))" : $0.path.description }
    }
}
