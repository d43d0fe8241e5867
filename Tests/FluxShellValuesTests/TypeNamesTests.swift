import Foundation
import Testing

@testable import FluxShellValues

/// Swift type names as a user writes them, as `actions` and errors show them.
private struct Item {}

struct TypeNamesTests {
    @Test func anErrorExistentialIsWrittenAnyError() {
        #expect(TypeNames.display(Result<[Item], any Error>.self) == "Result<[Item], any Error>")
        #expect(TypeNames.display((any Error)?.self) == "(any Error)?")
        #expect(TypeNames.display([String: any Error].self) == "[String: any Error]")
        #expect(TypeNames.display(Optional<[Int]>.self) == "[Int]?")
        #expect(TypeNames.display((() -> Void)?.self) == "(() -> ())?")
    }
}
