/// Hands an action on: to the next middleware, or to the store's reducer.
public typealias DispatchFunction = (Action) -> Void

/// ReSwift's curried middleware: given the store's `dispatch` and a way to read its state, and then
/// the next dispatch function, it returns the dispatch function that runs before that one. It may
/// pass the action on, replace it, drop it, or dispatch others.
///
/// ```swift
/// let logging: Middleware<AppState> = { dispatch, getState in
///     return { next in
///         return { action in
///             next(action)
///             print(action, getState()!)
///         }
///     }
/// }
/// ```
public typealias Middleware<State> = (@escaping DispatchFunction, @escaping () -> State?) -> (
    @escaping DispatchFunction
) -> DispatchFunction
