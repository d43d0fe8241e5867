#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How two printed numbers compare: exactly for integers and for the exact digits of a
/// ``JSONValue/number(_:)`` (a `UInt64` beyond `Int`, a long `Decimal`), through `Double` only
/// when a `Double` is one of them.
package enum NumberOrder {
    /// -1, 0 or 1; `nil` when either is not a number.
    package static func compare(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return sign(x < y, x == y)
        case (.number, _), (_, .number):
            if case .number(let x) = a, case .number(let y) = b, x == y { return 0 }
            // NB: beyond a `Decimal`'s range (an integer of 166 digits), through `Double`.
            if let x = exact(a), let y = exact(b) { return sign(x < y, x == y) }
            fallthrough
        default:
            guard let x = a.numberValue, let y = b.numberValue else { return nil }
            return sign(x < y, x == y)
        }
    }

    /// A number as a `Decimal`: an integer exactly, a double as its shortest printed form.
    private static func exact(_ value: JSONValue) -> Decimal? {
        switch value {
        case .int(let number): Decimal(number)
        case .number(let text): Decimal(string: text)
        case .double(let number): number.isFinite ? Decimal(string: String(number)) : nil
        default: nil
        }
    }

    private static func sign(_ less: Bool, _ equal: Bool) -> Int { less ? -1 : equal ? 0 : 1 }
}
