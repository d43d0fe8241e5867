import FluxShellFixtures
import Testing

/// Commands that take a path (`state`, `expect`, `watch`, `why`) answer with the path's value or
/// its error, through the whole shell.
struct PathCommandsTests {
    @Test func stateAndExpectAnswerAsBeforeWithTheirErrors() {
        let shell = Transcript()
        shell.run("load todos")
        shell.run("dispatch add title: a")
        shell.run("dispatch add title: b")
        #expect(shell.run("state todos[1].title") == [#""b""#])
        #expect(shell.run("state todos.count") == ["2"])
        #expect(shell.run("expect todos[0].done == false") == [])
        #expect(shell.run("state todos[2]") == ["error: index 2 is past the end of todos (2 elements)"])
        #expect(
            shell.run("state todos[0].titl").first?.hasPrefix(
                "error: no key 'titl' in todos[0] (did you mean 'title'?)") == true)
    }

    /// A path of a million segments, as a 16 MiB line may hold, is read once: each command
    /// answers with its error (these took time by the square of the path's length).
    @Test(arguments: ["state", "watch", "why", "expect"])
    func aPathOfAMillionSegmentsIsAnErrorForEachCommand(_ command: String) {
        let shell = Transcript()
        shell.run("load todos")
        shell.run("dispatch add title: x")
        for segment in [".x", "[0]", "[id: 1]"] {
            let path = "todos" + String(repeating: segment, count: 1_000_000 / segment.count)
            let lines = shell.run(command + " " + path + (command == "expect" ? " == 1" : ""))
            #expect(lines.count == 1)
            #expect(lines.first?.hasPrefix("error: ") == true)
            #expect(lines.first.map { $0.count < 500 } == true)
        }
    }
}
