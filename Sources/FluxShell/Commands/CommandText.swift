/// The printer of the command language: a ``Command`` as the line that parses back to it
/// (`CommandParser.parse(command.description).command == command`). What `save`, explore's
/// scenarios and journals, and `history` write.
extension Command: CustomStringConvertible {
    public var description: String {
        switch self {
        case .help(let topic): topic.map { "help " + $0 } ?? "help"
        case .stores: "stores"
        case .load(let name, let alias): alias.map { "load \(name) as \($0)" } ?? "load \(name)"
        case .use(let alias): "use \(alias)"
        case .actions: "actions"
        case .dispatch(let invocation): "dispatch " + invocation.description
        case .dispatchReading(let invocation, let paths): "dispatch " + invocation.description(reading: paths)
        case .state(let path): path.isRoot ? "state" : "state \(path)"
        case .history: "history"
        case .undo(let steps): steps == 1 ? "undo" : "undo \(steps)"
        case .redo(let steps): steps == 1 ? "redo" : "redo \(steps)"
        case .reset: "reset"
        case .expect(let expectation): "expect \(expectation)"
        case .why(let path): "why \(path)"
        case .invariants: "invariants"
        case .watch(let paths): (["watch"] + paths.map(\.description)).joined(separator: " ")
        case .unwatch(let paths): (["unwatch"] + paths.map(\.description)).joined(separator: " ")
        case .save(let file): "save " + ArgumentText.render(.string(file))
        case .exhaustive(let on): on ? "exhaustive on" : "exhaustive off"
        case .quit: "quit"
        }
    }
}

extension ActionInvocation {
    /// The invocation with `$PATH` in place of the arguments `paths` reads.
    func description(reading paths: [ArgumentPath]) -> String {
        var text = name
        for (index, argument) in arguments.enumerated() {
            text += " "
            if let label = argument.label { text += label + ": " }
            if let read = paths.first(where: { $0.index == index }) {
                text += "$" + read.path.description
            } else {
                text += ArgumentText.render(argument.value)
            }
        }
        return text
    }
}
