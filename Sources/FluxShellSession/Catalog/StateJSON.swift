import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// A store's state as printed, as every form of store runtime reads it: whole once after each
/// change, then kept until the next; or, while it is not kept, only the values one path goes
/// through.
@usableFromInline
package struct StateJSON {
    /// The whole state as read since its last change; `nil` once it changed.
    @usableFromInline package var kept: JSONValue?

    @usableFromInline package init() {}

    /// The whole state: `state` is read unless it was since its last change.
    package mutating func whole<State>(of state: State) -> JSONValue {
        if let kept { return kept }
        let json = ValueReader.read(state)
        kept = json
        return json
    }

    /// The value at `path` in `state`. While the whole state is not kept, only the path's values
    /// are read, so that one `state todos[5].title` does not print 300,000 todos into memory
    /// first.
    package mutating func value<State>(at path: ValuePath, of state: State) throws(ShellError) -> JSONValue {
        if kept == nil, !path.segments.isEmpty, let value = ValueReader().read(state, at: path.segments[...]) {
            return value
        }
        return try path.lookup(in: whole(of: state))
    }
}
