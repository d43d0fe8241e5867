import Foundation

/// What the counter's views ask of it.
public enum CounterAction {
    case increment
    case decrement
    case reset
    /// How far one increment or decrement goes (kept within 1...100).
    case setStep(Int)
    /// How long the views wait before they dispatch an increment or a decrement.
    case update(interval: TimeInterval)
    /// Keeps the current count in the list of marks.
    case mark
}
