import FluxShellLanguage
import FluxShellSystem
import FluxShellValues

/// Planning an edit of the past (`skip`, `unskip`, `replace`, `sweep`): which steps the edit may
/// name, and from where the timeline is replayed (see "Editing the past" in the reference).
extension Timeline {
    /// The edits in force: those of the done edit steps, in order.
    var editsInForce: TimelineEdits {
        var edits = TimelineEdits()
        for entry in history.entries[..<history.cursor] {
            if let edit = entry.edit { edits.apply(edit, by: entry.number) }
        }
        return edits
    }

    /// Checks that `edit` can be made now, and plans the replay that makes it.
    func plan(_ edit: TimelineEdit) throws(ShellError) -> ReplayPlan {
        let word = edit.command.word
        let index = try doneStep(edit.step, for: word)
        var edits = editsInForce
        let number = edit.step
        switch edit {
        case .skip:
            guard !edits.skipped.contains(number) else {
                throw ShellError("step \(number) is skipped already", hint: "unskip \(number) puts it back")
            }
        case .unskip:
            guard edits.skipped.contains(number) else {
                throw ShellError("step \(number) is not skipped", hint: "history marks the skipped steps")
            }
        case .replace:
            guard history.entries[index].action != nil else {
                throw ShellError(
                    "step \(number) (\(history.entries[index].text)) dispatched no action of its own to replace",
                    hint: "replace takes the number of a dispatch; skip takes out what effects sent")
            }
            guard !edits.skipped.contains(number) else {
                throw ShellError("step \(number) is skipped", hint: "unskip \(number) first, then replace it")
            }
        }
        edits.apply(edit, by: history.newestNumber + 1)
        return try replayPlan(from: index, with: edits)
    }

    /// The replay `sweep` makes: `nil` when no done step edits the timeline.
    func sweepPlan() throws(ShellError) -> ReplayPlan? {
        guard let first = history.entries[..<history.cursor].firstIndex(where: { $0.edit != nil }) else { return nil }
        return try replayPlan(from: first, with: editsInForce)
    }

    /// The steps `word` (`skip`, `unskip` or `replace`) can name now, as completion offers them.
    func editableSteps(for word: String) -> [String] {
        let skipped = editsInForce.skipped
        return history.entries[..<history.cursor].compactMap { entry in
            guard entry.tookActions else { return nil }
            switch word {
            case "unskip": return skipped.contains(entry.number) ? String(entry.number) : nil
            case "replace": return entry.action != nil && !skipped.contains(entry.number) ? String(entry.number) : nil
            default: return skipped.contains(entry.number) ? nil : String(entry.number)
            }
        }
    }

    /// The index of the done step `number` that dispatched actions, or why `word` cannot name it.
    private func doneStep(_ number: Int, for word: String) throws(ShellError) -> Int {
        let after = try cursor(afterStep: number)
        guard after > 0 else {
            throw ShellError(
                "step \(number) is forgotten", hint: history.forgettingHint)
        }
        let index = after - 1
        let entry = history.entries[index]
        guard index < history.cursor else {
            throw ShellError(
                "step \(number) is undone", hint: "redo brings it back; \(word) edits the steps taken up to now")
        }
        if let edit = entry.edit {
            throw ShellError(
                "step \(number) is itself an edit (\(edit.command)), not an action", hint: "undo takes it back")
        }
        guard entry.tookActions else {
            throw ShellError(
                entry.isTheApps
                    ? "step \(number) is a store's own change (\(entry.text)), which no command of the shell made"
                    : "step \(number) is a reset, not an action",
                hint: "history lists the steps")
        }
        return index
    }

    /// The replay of the done steps with `edits`, from before entry `index` or earlier: from the
    /// earliest step that any done edit from there on names, so that every state kept before
    /// the replay's start is as the edits leave it.
    private func replayPlan(from index: Int, with edits: TimelineEdits) throws(ShellError) -> ReplayPlan {
        let entries = history.entries
        var start = index
        // NB: an edit step names an earlier step, so one pass back from now reaches every edit
        // at or after the start as the start moves back.
        var position = history.cursor - 1
        while position >= start {
            if let edit = entries[position].edit {
                guard let named = history.index(ofStep: edit.step) else {
                    throw ShellError(
                        "step \(edit.step), which step \(entries[position].number) edits, is forgotten: the steps cannot be replayed from before it",
                        hint: "commit makes the state now where the history starts")
                }
                start = min(start, named)
            }
            position -= 1
        }
        let steps = entries[start..<history.cursor].map { entry in
            ReplayPlan.Step(
                number: entry.number,
                treatment: entry.edit != nil
                    ? .leftOut : entry.tookActions ? edits.treatment(of: entry.number) : .asRecorded,
                action: entry.action)
        }
        return ReplayPlan(start: start, steps: steps)
    }
}
