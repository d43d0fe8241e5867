import FluxCore
import IdentifiedCollections
import OrderedCollections
import Tagged

/// The list of sync-ups, the form that adds one, and the ones opened lately.
public struct SyncUpsState: State {
    public var syncUps: IdentifiedArrayOf<SyncUp> = []
    public var addSyncUp: SyncUpForm?
    public var recentlyOpened: OrderedSet<SyncUp.ID> = []

    public init() {}
}
