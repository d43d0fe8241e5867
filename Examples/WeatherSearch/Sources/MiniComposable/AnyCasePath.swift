/// An enum case as a value, as swift-case-paths (re-exported by TCA) gives it: how to embed a
/// value in the case, and to extract it when an enum value is that case.
///
/// ```swift
/// static var weatherCase: AnyCasePath<Action, LocationWeather.Action> {
///     AnyCasePath(embed: Action.weather, extract: { if case .weather(let action) = $0 { action } else { nil } })
/// }
/// ```
public struct AnyCasePath<Root, Value>: Sendable {
    private let embedValue: @Sendable (Value) -> Root
    private let extractValue: @Sendable (Root) -> Value?

    /// A case path from its two directions.
    public init(embed: @escaping @Sendable (Value) -> Root, extract: @escaping @Sendable (Root) -> Value?) {
        self.embedValue = embed
        self.extractValue = extract
    }

    /// The enum value of this case that carries `value`.
    public func embed(_ value: Value) -> Root {
        embedValue(value)
    }

    /// The value `root` carries when it is this case, else `nil`.
    public func extract(from root: Root) -> Value? {
        extractValue(root)
    }
}
