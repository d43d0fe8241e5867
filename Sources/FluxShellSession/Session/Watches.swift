import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// Which diff lines print while paths are watched (`watch PATH...`): those at or under a watched
/// path, `[*]` matching any index or key. Printing only: expected diff lines, `save` and
/// `--format json` see every line. Public only as ``CommandDiff`` is, whose inlinable walk takes
/// it; not public API.
@_documentation(visibility: internal)
public struct _WatchFilter: Sendable {
    /// The watched paths as the diff prints them (with the store's alias first when several
    /// stores are loaded).
    let patterns: [ValuePath]

    @usableFromInline package func shows(_ entry: DiffEntry) -> Bool {
        patterns.contains { $0.covers(entry.path) }
    }
}

extension Session {
    /// What the diffs print while paths are watched; `nil` when none is (every line prints).
    public var watchFilter: WatchFilter? {
        guard !watches.isEmpty else { return nil }
        var patterns: [ValuePath] = []
        for watch in watches {
            if AliasPrefix.applies(amongStores: stores.count) {
                patterns.append(
                    ValuePath(AliasPrefix.segments(watch.alias, amongStores: stores.count) + watch.path.segments))
            } else if stores.first?.alias == watch.alias {
                patterns.append(watch.path)
            }
        }
        return WatchFilter(patterns: patterns)
    }

    func watch(_ paths: [ValuePath]) throws(ShellError) -> CommandResult {
        guard !paths.isEmpty else { return CommandResult(.watches(watchList)) }
        var located: [(alias: String, path: ValuePath)] = []
        for typed in paths {
            let (store, path) = try locate(typed) { path, store in
                (try? self.checkWatchable(path, as: path, in: store)) != nil
            }
            // NB: `[id: X]` is the element that has that id when the watch is set, by its index, as
            // diff lines name it.
            let resolved = try path.resolvingIDs(in: store.json)
            try checkWatchable(resolved, as: typed, in: store)
            located.append((store.alias, resolved))
        }
        for watch in located where !watches.contains(where: { $0.alias == watch.alias && $0.path == watch.path }) {
            watches.append(watch)
        }
        return CommandResult()
    }

    /// A watched path must name something now, or a place that may come: an element of an array
    /// (`todos[5]` before the fifth todo is added), or under a value that is `null` now. A
    /// misspelt watch would otherwise hide every line without a word.
    func checkWatchable(_ path: ValuePath, as typed: ValuePath, in store: LoadedStore) throws(ShellError) {
        if reads(path, in: store) { return }
        if case .key(let key)? = path.segments.first, case .object(let state) = store.json, state[key] == nil {
            throw ShellError(
                "no key '\(key)' in the state of '\(store.alias)'",
                hint: Suggestion.didYouMean(key, among: state.keys)
                    ?? "its keys are: \(state.keys.joined(separator: ", "))")
        }
        // NB: made only when thrown: a path's text is as long as the path.
        var namesNothing: ShellError {
            ShellError(
                "'\(typed)' names nothing in the state of '\(store.alias)'",
                hint: "watch what state shows, or an element of an array that may come")
        }
        // NB: the longest part of the path that names something now decides.
        let (count, value) = path.deepestValue(in: store.json)
        guard count < path.segments.count else { throw namesNothing }
        switch (value, path.segments[count]) {
        case (.null, _), (.array, .index), (.array, .every), (.array, .id), (.object, .every): return
        // NB: a dictionary's key that may come (`watch budget["zeta"]` before it is set).
        case (.object(let object), .key), (.object(let object), .entry):
            guard object.isKeyed else { throw namesNothing }
            return
        default: throw namesNothing
        }
    }

    func unwatch(_ paths: [ValuePath]) throws(ShellError) -> CommandResult {
        guard !paths.isEmpty else {
            watches = []
            return CommandResult()
        }
        var located: [(alias: String, path: ValuePath)] = []
        for typed in paths {
            let (store, path) = try locate(typed)
            let resolved = (try? path.resolvingIDs(in: store.json)) ?? path
            guard watches.contains(where: { $0.alias == store.alias && $0.path == resolved }) else {
                throw ShellError(
                    "\(typed) is not watched",
                    hint: watches.isEmpty ? "nothing is watched" : "watched: \(watchList.joined(separator: ", "))")
            }
            located.append((store.alias, resolved))
        }
        watches.removeAll { watch in located.contains { $0.alias == watch.alias && $0.path == watch.path } }
        return CommandResult()
    }

    /// The watches as `watch` lists them: `PATH`, with ` (in ALIAS)` when several stores are loaded.
    private var watchList: [String] {
        watches.map {
            AliasPrefix.applies(amongStores: stores.count) ? "\($0.path) (in \($0.alias))" : $0.path.description
        }
    }
}

/// The name the package's own code uses. The type's public name is underscored: it is public
/// only so that code inlined into a user's module can use it (see docs/architecture.md).
@usableFromInline package typealias WatchFilter = _WatchFilter
