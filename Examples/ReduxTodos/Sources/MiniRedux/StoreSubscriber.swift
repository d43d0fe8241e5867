/// A subscriber of any state type, as the store keeps it.
public protocol AnyStoreSubscriber: AnyObject {
    func _newState(state: Any)
}

/// What `Store.subscribe(_:)` takes: an object told of each new state.
public protocol StoreSubscriber: AnyStoreSubscriber {
    associatedtype StoreSubscriberStateType

    func newState(state: StoreSubscriberStateType)
}

extension StoreSubscriber {
    public func _newState(state: Any) {
        if let typedState = state as? StoreSubscriberStateType {
            newState(state: typedState)
        }
    }
}
