#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The error the shell makes for an `any Error` typed as text: nothing but its description.
///
/// A parameter of an action whose type is `any Error` (also `(any Error)?`, the failure of a
/// `Result<T, any Error>`, or a member of type `any Error` at any depth of an argument) takes a
/// string, and the error it receives is a `DescribedError` whose description is that string. It
/// prints back as the same string, so `history`, `save` and the recorder write a line that
/// replays it:
///
/// ```text
/// weather> dispatch forecastResponse {"failure":{"_0":"offline"}}
/// ~ forecast: null -> {"failure":{"_0":"offline"}}
/// ```
///
/// A reducer reads it as it reads any error: its `description`, `String(describing:)` and
/// `localizedDescription` are the text typed, so code that switches on an error's text works
/// as in the app:
///
/// ```swift
/// case .forecastResponse(.failure(let error)):
///     state.message = error.localizedDescription  // "offline"
/// ```
///
/// An error type of your own (an enum or a struct) is not made this way: a parameter of that type
/// takes that type's own form.
public struct DescribedError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The text typed, which is what the error says.
    public let description: String

    /// An error whose description is `description`.
    public init(_ description: String) {
        self.description = description
    }

    /// The ``description``, so that `localizedDescription` is the text typed too.
    public var errorDescription: String? { description }
}
