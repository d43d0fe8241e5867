/// A passive view: it shows what changed and forwards user input to its ``Presenter``.
///
/// ```swift
/// extension CounterViewController: View {
///     func reflect(change: StateChange<CounterState>) {
///         if let count = change.count?.value { counterLabel.text = "\(count)" }
///     }
/// }
/// ```
public protocol View: AnyObject {
    associatedtype State: FluxCore.State

    /// Called after each action that changed the state, on the main thread unless its
    /// presenter was given another ``Executor``.
    func reflect(change: StateChange<State>)
}
