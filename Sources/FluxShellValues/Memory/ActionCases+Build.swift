import FluxShellJSON
import FluxShellSystem

/// The enum builder: a value of an action's case made in place, in memory of the enum's own type,
/// from its arguments read from text (see ``ActionCases``), through the typed view ``ValueSlot``:
/// every other file builds actions through ``ActionCases/make(_:_:as:)``.
extension ActionCases {
    /// The action of type `Action` (this enum) that `invocation` names, by the case at `index`:
    /// how the store runtime makes each dispatched action, and the recorder checks that its line
    /// replays to the action it recorded.
    ///
    /// - Returns: the action, and its invocation in printed form as ``build(_:_:into:)`` gives.
    @inlinable
    package func make<Action>(_ index: Int, _ invocation: ActionInvocation, as _: Action.Type) throws(ShellError)
        -> (action: Action, printed: ActionInvocation?)
    {
        guard owner(ofCase: index) == Action.self else { return try makeListed(index, invocation, as: Action.self) }
        // NB: the action is built in place in memory of its own type, then moved out: `build`
        // either initializes the whole value (payload, then tag) or throws having destroyed what
        // it wrote, so `move()` runs only on a complete value. Built this way, not through
        // `Codable`, a distinct line's action goes through no encoder and no boxes.
        do {
            let (action, printed) = try ValueSlot.build(Action.self) { try build(index, invocation, into: $0) }
            return (action, printed)
        } catch {
            throw error as? ShellError ?? ShellError("\(error)")
        }
    }

    /// The type the case at `index` makes a value of.
    @usableFromInline
    package func owner(ofCase index: Int) -> Any.Type { cases[index].owner }

    /// An action of a type listed in `actionTypes:` (a struct, or an enum's case), built in
    /// memory of its own type, then given as the store's action type (the library's `any Action`).
    @usableFromInline
    func makeListed<Action>(_ index: Int, _ invocation: ActionInvocation, as _: Action.Type) throws(ShellError)
        -> (action: Action, printed: ActionInvocation?)
    {
        // NB: as in `make`: the memory is allocated as the listed type's own (`Owner`), and
        // `build` initializes all of it or none, so `move()` runs only on a complete value.
        func make<Owner>(_: Owner.Type) -> Result<(Any, ActionInvocation?), ShellError> {
            do {
                let (value, printed) = try ValueSlot.build(Owner.self) { try build(index, invocation, into: $0) }
                return .success((value, printed))
            } catch {
                return .failure(error as? ShellError ?? ShellError("\(error)"))
            }
        }
        let owner = cases[index].owner
        let (value, printed) = try _openExistential(owner, do: make).get()
        guard let action = value as? Action else {
            throw ShellError(
                "the store takes \(TypeNames.display(Action.self)) actions, and \(TypeNames.display(owner)) is not one",
                hint: "list in actionTypes: only types that conform to the reducer's action protocol")
        }
        return (action, printed)
    }

    /// Initializes the memory at `value` to the case at `index` with `invocation`'s arguments.
    ///
    /// - Returns: the invocation as typed with each value in its printed form (`at:
    ///   "2026-11-22T09:00:00Z"` for an offset typed, a set sorted), when a value was not typed in
    ///   it; `nil` when every one was.
    @usableFromInline
    func build(_ index: Int, _ invocation: ActionInvocation, into value: ValueSlot)
        throws(ShellError)
        -> ActionInvocation?
    {
        let item = cases[index]
        let signature = item.signature
        let arguments = try ActionText.arguments(of: invocation, for: signature)
        var written = 0
        var printed: ActionInvocation?
        do {
            // NB: a struct's stored properties are written where the runtime places them, as an
            // enum's payload is; it has no tag to set.
            func initialize(_ fill: (ValueSlot) throws -> Void) throws {
                guard let tag = item.tag else { return try fill(value) }
                try RuntimeMetadata.initializeCase(
                    tag, of: item.owner, boxing: item.boxedPayload, at: value, payload: fill)
            }
            try initialize { payload in
                var isPrinted = true
                do {
                    for (number, parameter) in item.parameters.enumerated() {
                        let typedAsPrinted = try parameter.reader.initialize(
                            arguments[number], payload + parameter.offset
                        ) {
                            [ArgumentKey(signature.name), ArgumentKey(signature.parameters[number].key)]
                        }
                        isPrinted = isPrinted && typedAsPrinted
                        written += 1
                    }
                } catch {
                    for parameter in item.parameters.prefix(written) {
                        parameter.reader.deinitialize(payload + parameter.offset)
                    }
                    throw error
                }
                guard !isPrinted else { return }
                // NB: read before the tag is set, while each parameter's memory holds just its value.
                // Each argument stays as it was typed, where it was and labelled or not; only its
                // value takes its printed form (see "History, undo and reset" in the reference).
                var retyped = ActionInvocation(name: signature.name)
                for (position, argument) in invocation.arguments.enumerated() {
                    guard
                        let number = ActionText.parameterIndex(
                            of: argument, at: position, among: signature.parameters)
                    else { continue }
                    let parameter = item.parameters[number]
                    retyped.arguments.append(
                        .init(
                            label: argument.label,
                            value: ValueReader.read(parameter.shape.load((payload + parameter.offset).address))))
                }
                printed = retyped
            }
        } catch {
            throw describe(error, parameter: written, invocation: invocation, signature: signature)
        }
        return printed
    }
}

extension ActionCases {
    /// A struct action listed in `actionTypes:` in command syntax: its name and each stored
    /// property read where the runtime places it, not from how the whole value prints (a raw
    /// value, a custom mirror), so that the line names the properties as the type declares them.
    ///
    /// NB: `value` is of the struct type of the case at `index` (the caller found the case by the
    /// value's type); each parameter's offset and shape are that struct's field's.
    func invocation<T>(ofStruct value: T, case index: Int) -> ActionInvocation {
        let item = cases[index]
        var invocation = ActionInvocation(name: item.signature.name)
        ValueAddress.of(value) { address in
            for (parameter, signature) in zip(item.parameters, item.signature.parameters) {
                let field = parameter.shape.load(address + parameter.offset)
                invocation.arguments.append(.init(label: signature.label, value: ValueReader.read(field)))
            }
        }
        return invocation
    }
}
