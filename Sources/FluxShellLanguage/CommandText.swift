import FluxShellJSON

/// The printer of the command language: a ``Command`` as the line that parses back to it
/// (`CommandParser.parse(command.description).command == command`). What `save`, explore's
/// scenarios and journals, and `history` write.
extension Command: CustomStringConvertible {
    public var description: String {
        switch self {
        case .help(let topic): topic.map { "help " + $0 } ?? "help"
        case .stores: "stores"
        // NB: an alias that is not one bare word was typed in quotes, and is written so.
        case .load(let name, let alias, let state):
            (alias.map { "load \(name) as \(ArgumentText.render(.string($0)))" } ?? "load \(name)")
                + (state.map { " with " + JSONText.compact($0) } ?? "")
        case .use(let alias): "use \(ArgumentText.render(.string(alias)))"
        case .actions(let alias): alias.map { "actions " + ArgumentText.render(.string($0)) } ?? "actions"
        case .dispatch(let invocation): "dispatch " + invocation.description
        case .dispatchReading(let invocation, let paths): "dispatch " + invocation.description(reading: paths)
        case .state(let path): path.isRoot ? "state" : "state \(path)"
        case .history: "history"
        case .undo(let steps): steps == 1 ? "undo" : "undo \(steps)"
        case .redo(let steps): steps == 1 ? "redo" : "redo \(steps)"
        case .reset: "reset"
        case .skip(let step): "skip \(step)"
        case .unskip(let step): "unskip \(step)"
        case .replace(let step, let invocation): "replace \(step) " + invocation.description
        case .commit: "commit"
        case .sweep: "sweep"
        case .expect(let expectation): "expect \(expectation)"
        case .why(let path): "why \(path)"
        case .find(let query): "find \(query)"
        case .diff(let from, let to): to.map { "diff \(from) \($0)" } ?? "diff \(from)"
        case .invariants: "invariants"
        case .watch(let paths): (["watch"] + paths.map(\.description)).joined(separator: " ")
        case .unwatch(let paths): (["unwatch"] + paths.map(\.description)).joined(separator: " ")
        case .save(let file): "save " + ArgumentText.render(.string(file))
        case .advance(let duration): duration.map { "advance " + Seconds.text($0) } ?? "advance"
        case .effects: "effects"
        case .cancel(let id): id.map { "cancel " + ArgumentText.render(.string($0)) } ?? "cancel"
        case .seed(let seed): "seed \(seed)"
        case .exhaustive(let on): on ? "exhaustive on" : "exhaustive off"
        case .read(let file): "read " + ArgumentText.render(.string(file))
        case .output(let file): file.map { "output " + ArgumentText.render(.string($0)) } ?? "output"
        case .format(let json): json ? "format json" : "format text"
        case .timer(let on): on ? "timer on" : "timer off"
        case .quit: "quit"
        }
    }
}

extension ActionInvocation {
    /// The invocation with `$PATH` where `paths` read: in place of a whole argument, or inside
    /// one's JSON.
    func description(reading paths: [ArgumentPath]) -> String {
        guard !paths.isEmpty else { return description }
        var text = name
        for (index, argument) in arguments.enumerated() {
            text += " "
            if let label = argument.label { text += label + ": " }
            let reads = paths.filter { $0.index == index }
            if reads.isEmpty {
                text += ArgumentText.render(argument.value)
            } else {
                JSONText.writeCompact(
                    argument.value, marking: reads.map { ($0.within.segments[...], "$" + $0.path.description) },
                    to: &text)
            }
        }
        return text
    }
}
