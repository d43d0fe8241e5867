/// The enum builder: a value of an action's case made in place, in memory of the enum's own type,
/// from its arguments read from text (see ``ActionCases``). With ``RuntimeMetadata`` and
/// ``TypeShape``, the engine's code that writes a value's memory: every other file builds actions
/// through ``ActionCases/make(_:_:as:)``.
extension ActionCases {
    /// The action of type `Action` (this enum) that `invocation` names, by the case at `index`:
    /// how the store runtime makes each dispatched action, and the recorder checks that its line
    /// replays to the action it recorded.
    ///
    /// - Returns: the action, and its invocation in printed form as ``build(_:_:into:)`` gives.
    @inlinable
    func make<Action>(_ index: Int, _ invocation: ActionInvocation, as _: Action.Type) throws(ShellError)
        -> (action: Action, printed: ActionInvocation?)
    {
        guard owner(ofCase: index) == Action.self else { return try makeListed(index, invocation, as: Action.self) }
        // NB: the action is built in place in memory of its own type, then moved out: `build`
        // either initializes the whole value (payload, then tag) or throws having destroyed what
        // it wrote, so `move()` runs only on a complete value. Building it this way, not through
        // `Codable`, took 1,000,000 distinct `dispatch set N` from 5.89 s to 2.43 s.
        do {
            return try withUnsafeTemporaryAllocation(of: Action.self, capacity: 1) { buffer in
                let value = buffer.baseAddress!
                let printed = try build(index, invocation, into: UnsafeMutableRawPointer(value))
                return (value.move(), printed)
            }
        } catch {
            throw error as? ShellError ?? ShellError("\(error)")
        }
    }

    /// The type the case at `index` makes a value of.
    @usableFromInline
    func owner(ofCase index: Int) -> Any.Type { cases[index].owner }

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
                return .success(
                    try withUnsafeTemporaryAllocation(of: Owner.self, capacity: 1) { buffer in
                        let value = buffer.baseAddress!
                        let printed = try build(index, invocation, into: UnsafeMutableRawPointer(value))
                        return (value.move() as Any, printed)
                    })
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
    func build(_ index: Int, _ invocation: ActionInvocation, into value: UnsafeMutableRawPointer) throws(ShellError)
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
            func initialize(_ fill: (UnsafeMutableRawPointer) throws -> Void) throws {
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
                            value: ValueReader.read(parameter.shape.loadRaw(payload + parameter.offset))))
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
        withUnsafePointer(to: value) { pointer in
            for (parameter, signature) in zip(item.parameters, item.signature.parameters) {
                let field = parameter.shape.loadRaw(UnsafeRawPointer(pointer) + parameter.offset)
                invocation.arguments.append(.init(label: signature.label, value: ValueReader.read(field)))
            }
        }
        return invocation
    }
}

/// Reads one argument from text into the memory of a parameter of one type.
///
/// NB: the pointers handed to `initialize` and `deinitialize` come only from
/// ``ActionCases/build(_:_:into:)``: memory allocated as the action enum's own type, plus the
/// offset the runtime's tuple metadata gives for this parameter's type (``TypeShape``), so the
/// memory is sized and aligned for it. `initialize` writes the value only once it has been read
/// without error, and `deinitialize` runs only on memory `initialize` filled.
struct ArgumentReader {
    /// Initializes the memory at the pointer to the argument's value (`nil`: the argument was left
    /// out, which only an `Optional` allows), and says whether the argument was typed as the value
    /// prints. The path, for errors, is made only when needed.
    let initialize:
        (_ argument: JSONValue?, _ destination: UnsafeMutableRawPointer, _ path: () -> [any CodingKey]) throws -> Bool
    let deinitialize: (UnsafeMutableRawPointer) -> Void
    /// Whether text can give a value other than `nil` (not for an `Error`, a closure, …).
    let hasTextForm: Bool

    static func of(_ type: Any.Type) -> ArgumentReader {
        // NB: the common argument types read their value without the general path's type tests
        // when the argument already has the type; anything else (and every error) takes that path.
        switch type {
        case is Int.Type: return reading(Int.self) { if case .int(let number) = $0 { number } else { nil } }
        case is String.Type: return reading(String.self) { if case .string(let text) = $0 { text } else { nil } }
        case is Bool.Type: return reading(Bool.self) { if case .bool(let flag) = $0 { flag } else { nil } }
        case is Double.Type: return reading(Double.self) { if case .double(let number) = $0 { number } else { nil } }
        default: break
        }
        func open<T>(_: T.Type) -> ArgumentReader { reading(T.self) { _ in nil } }
        return _openExistential(type, do: open)
    }

    /// A value of `T` from its printed form (``ValueBuilder``), or `direct`ly from an argument
    /// that already is one; a left-out argument is `nil` for an `Optional`.
    private static func reading<T>(_: T.Type, direct: @escaping (JSONValue) -> T?) -> ArgumentReader {
        let empty = nilValue(of: T.self)
        return ArgumentReader(
            initialize: { argument, destination, path in
                guard let argument else {
                    guard let empty else { throw NoTextForm(type: T.self, codingPath: path()) }
                    destination.initializeMemory(as: T.self, to: empty)
                    return true
                }
                if let value = direct(argument) {
                    destination.initializeMemory(as: T.self, to: value)
                    return true
                }
                destination.initializeMemory(as: T.self, to: try ValueBuilder.build(T.self, from: argument, at: path()))
                return false
            },
            deinitialize: { $0.assumingMemoryBound(to: T.self).deinitialize(count: 1) },
            hasTextForm: ValueBuilder.hasTextForm(T.self))
    }

    /// `nil` of an `Optional` type, as a value of that type; `nil` for any other type.
    private static func nilValue<T>(of type: T.Type) -> T? {
        guard let nilable = type as? any ExpressibleByNilLiteral.Type else { return nil }
        func make<N: ExpressibleByNilLiteral>(_: N.Type) -> T? { N(nilLiteral: ()) as? T }
        return make(nilable)
    }
}

/// A case without payload of an enum: its name, its printed form (its raw value, else its
/// name) and the value.
struct EmptyCase<T> {
    let name: String
    let printed: JSONValue
    let value: T

    /// Every case without payload of `T`, in the runtime's order; none when `T` is not an enum.
    static func all(of _: T.Type) -> [EmptyCase] {
        guard let cases = RuntimeMetadata.enumCases(of: T.self) else { return [] }
        let shape = TypeShape.of(T.self)
        return cases.compactMap { enumCase in
            guard enumCase.payload == nil, let value = shape.emptyCase(named: enumCase.name, as: T.self) else {
                return nil
            }
            return EmptyCase(name: enumCase.name, printed: ValueReader.read(value), value: value)
        }
    }
}
