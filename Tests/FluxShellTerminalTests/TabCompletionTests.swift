import Testing

@testable import FluxShellTerminal

/// What Tab does with the shell's candidates, apart from the terminal that shows it (the line
/// editor itself is tested in a terminal: `Tests/Terminal/interactive.sh`).
struct TabCompletionTests {
    @Test func noCandidateBeeps() {
        #expect(TabCompletion(word: "zz", candidates: []) == .beep)
    }

    @Test func theOneCandidateIsFinishedWithASpaceAfterAWholeWord() {
        #expect(TabCompletion(word: "dis", candidates: ["dispatch"]) == .insert("patch "))
        #expect(TabCompletion(word: "tit", candidates: ["title:"]) == .insert("le: "))
        #expect(TabCompletion(word: "dispatch", candidates: ["dispatch"]) == .insert(" "))
    }

    @Test(arguments: ["todos[", "todos.", "Scenarios/"])
    func aPathThatGoesOnGetsNoSpace(_ candidate: String) {
        #expect(TabCompletion(word: "to", candidates: [candidate]) == .insert(String(candidate.dropFirst(2))))
    }

    @Test func severalCandidatesGiveWhatTheyHaveInCommon() {
        #expect(TabCompletion(word: "a", candidates: ["active", "activate"]) == .insert("ctiv"))
        #expect(TabCompletion(word: "é", candidates: ["étoile", "étoffe"]) == .insert("to"))
    }

    @Test func severalCandidatesWithNothingMoreInCommonAreListedInColumns() {
        #expect(TabCompletion(word: "a", candidates: ["all", "active"]) == .list("\nall     active  \n"))
        let many = (1...12).map { "store\($0)" }
        guard case .list(let text) = TabCompletion(word: "store", candidates: many, width: 40) else {
            Issue.record("not a list")
            return
        }
        let rows = text.split(separator: "\n")
        #expect(rows.count == 3)
        #expect(rows.first == "store1   store2   store3   store4   ")
        #expect(rows.allSatisfy { $0.count <= 40 })
        #expect(rows.flatMap { $0.split(separator: " ") }.map(String.init) == many)
    }
}
