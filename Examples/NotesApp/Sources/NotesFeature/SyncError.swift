/// The last failure of a sync, kept in the state as an `Error`.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "sync failed: \(reason)" }

    public init(reason: String) { self.reason = reason }
}
