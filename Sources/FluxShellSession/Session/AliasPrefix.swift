import FluxShellJSON
import FluxShellValues

/// How what the shell prints names a store's values (“Paths” in the reference): by the store's own
/// paths while one store is loaded, and by paths that begin with the store's alias from two stores
/// on (`~ todos.todos[2].done`). Every diff, `why` listing and watch pattern applies it here;
/// ``Session/locate(_:where:)`` reads such a path back.
package enum AliasPrefix {
    /// Whether paths begin with the alias when `count` stores are (or were, at a step) loaded.
    @inline(__always)
    static func applies(amongStores count: Int) -> Bool { count > 1 }

    /// The segments that come before a path of store `alias`'s state.
    static func segments(_ alias: String, amongStores count: Int) -> [ValuePath.Segment] {
        applies(amongStores: count) ? [.key(alias)] : []
    }

    /// `changes` of store `alias`, with their paths as printed.
    @inline(__always)
    package static func entries(_ changes: [DiffEntry], of alias: String, amongStores count: Int) -> [DiffEntry] {
        applies(amongStores: count) ? changes.map { $0.prefixed(by: .key(alias)) } : changes
    }
}
