/// A state a `Store` manages: a class whose members are changed only by its `Mutations`.
public protocol State: AnyObject {
    associatedtype Action
    associatedtype Mutations: MiniVue.Mutations where Mutations.State == Self
}

/// The one way to change a state: each action a store receives is committed here.
public protocol Mutations {
    associatedtype State: MiniVue.State

    /// Changes `state` as `action` says.
    func commit(action: State.Action, state: State)
}
