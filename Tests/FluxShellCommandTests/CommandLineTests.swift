import ArgumentParser
import Testing

@testable import FluxShellCommand

/// The command line's own checks, before anything runs (reference: "Devtools in the browser").
struct CommandLineTests {
    /// The message a command line is refused with, or `nil` when it parses.
    static func refusal<Command: ParsableCommand>(_ type: Command.Type, _ arguments: [String]) -> String? {
        do {
            _ = try type.parse(arguments)
            return nil
        } catch {
            return type.message(for: error)
        }
    }

    @Test func aPortIsOneToSixtyFiveThousandFiveHundredThirtyFive() {
        #expect(Self.refusal(Web.self, ["--port", "8080"]) == nil)
        #expect(Self.refusal(Web.self, ["--port", "0"]) == "--port takes 1 to 65535, not 0")
        #expect(Self.refusal(Web.self, ["--port", "65536"]) == "--port takes 1 to 65535, not 65536")
        #expect(
            Self.refusal(Attach.self, ["notes", "--web", "--port", "70000"]) == "--port takes 1 to 65535, not 70000")
    }

    @Test func attachTakesAPortOnlyForThePage() {
        #expect(Self.refusal(Attach.self, ["notes", "--web", "--port", "8080"]) == nil)
        #expect(Self.refusal(Attach.self, ["notes", "--web"]) == nil)
        #expect(
            Self.refusal(Attach.self, ["notes", "--port", "8080"])
                == "--port is the devtools page's port: give it with --web")
    }

    @Test func listenTakesItsPortAndThePagesPortApart() {
        #expect(Self.refusal(Listen.self, []) == nil)
        #expect(Self.refusal(Listen.self, ["--port", "4000", "--address", "10.0.0.2"]) == nil)
        #expect(Self.refusal(Listen.self, ["--port", "0"]) == "--port takes 1 to 65535, not 0")
        #expect(Self.refusal(Listen.self, ["--web", "--web-port", "8080", "--port", "4000"]) == nil)
        #expect(
            Self.refusal(Listen.self, ["--web", "--web-port", "99999"]) == "--web-port takes 1 to 65535, not 99999")
        #expect(
            Self.refusal(Listen.self, ["--web-port", "8080"])
                == "--web-port is the devtools page's port: give it with --web")
    }
}
