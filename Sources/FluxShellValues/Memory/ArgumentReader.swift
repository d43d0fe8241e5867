import FluxShellJSON

/// Reads one argument from text into the memory of a parameter of one type.
///
/// NB: the slots handed to `initialize` and `deinitialize` come only from
/// ``ActionCases/build(_:_:into:)``: memory allocated as the action enum's own type, plus the
/// offset the runtime's tuple metadata gives for this parameter's type (``TypeShape``), so the
/// memory is sized and aligned for it. `initialize` writes the value only once it has been read
/// without error, and `deinitialize` runs only on memory `initialize` filled.
struct ArgumentReader {
    /// Initializes the memory of the slot to the argument's value (`nil`: the argument was left
    /// out, which only an `Optional` allows), and says whether the argument was typed as the value
    /// prints. The path, for errors, is made only when needed.
    let initialize: (_ argument: JSONValue?, _ destination: ValueSlot, _ path: () -> [any CodingKey]) throws -> Bool
    let deinitialize: (ValueSlot) -> Void
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
                    destination.initialize(to: empty)
                    return true
                }
                if let value = direct(argument) {
                    destination.initialize(to: value)
                    return true
                }
                destination.initialize(to: try ValueBuilder.build(T.self, from: argument, at: path()))
                return false
            },
            deinitialize: { $0.deinitialize(as: T.self) },
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
