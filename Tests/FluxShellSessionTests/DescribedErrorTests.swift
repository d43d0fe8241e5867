import FluxCore
import FluxShellFixtures
import Foundation
import Testing

@testable import FluxShellJSON
@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// An `Error` existential typed as a string (“Stores of every architecture” in the reference,
/// common payloads): the error it makes, how it prints back, and the errors that keep their own
/// form.
struct DescribedErrorTests {
    enum NetworkError: Error, Codable, Equatable, Sendable {
        case offline
        case status(code: Int)
    }
    struct Timeout: Error, Codable, Equatable, Sendable { var seconds: Int }
    struct Report: Sendable {
        let code: Int
        let error: any Error & Sendable
    }

    enum Weather: Action {
        case forecastResponse(Result<Int, any Error & Sendable>)
        case fail(any Error & Sendable)
        case setError((any Error & Sendable)?)
        case report(Report)
        case network(NetworkError)
        case timeout(Timeout)
    }

    struct Station: State {
        var forecast: Result<Int, any Error & Sendable>?
        var error: (any Error & Sendable)?
        var report: Report?
        /// What the reducer read from the error it was given.
        var seen = ""
    }

    struct StationMutation: Mutation, Sendable {
        func mutate(action: Weather, state: inout Station) {
            switch action {
            case .forecastResponse(let result):
                state.forecast = result
                if case .failure(let error) = result { state.seen = error.localizedDescription }
            case .fail(let error), .setError(let error?):
                state.error = error
                state.seen = "\(error)"
            case .setError(nil): state.error = nil
            case .report(let report): state.report = report
            case .network(let error): state.error = error
            case .timeout(let error): state.error = error
            }
        }
    }

    private func shell() -> Transcript {
        let shell = Transcript(
            catalog: StoreCatalog([StoreDefinition("weather", state: Station(), mutation: StationMutation())]))
        shell.run("load weather")
        return shell
    }

    @Test func aStringIsAnErrorWhoseDescriptionItIsAndPrintsBackAsIt() {
        let shell = shell()
        #expect(
            shell.run(#"dispatch forecastResponse {"failure":{"_0":"offline"}}"#) == [
                #"~ forecast: null -> {"failure":{"_0":"offline"}}"#, #"~ seen: "" -> "offline""#,
            ])
        #expect(shell.run("state forecast") == [#"{"failure":{"_0":"offline"}}"#])
        #expect(
            shell.run(#"dispatch forecastResponse {"success":{"_0":21}}"#).first
                == #"~ forecast: {"failure":{"_0":"offline"}} -> {"success":{"_0":21}}"#)
        #expect(
            shell.run(#"dispatch fail "no network""#) == [
                #"~ error: null -> "no network""#, #"~ seen: "offline" -> "no network""#,
            ])
        #expect(
            shell.run("dispatch setError timeout") == [
                #"~ error: "no network" -> "timeout""#, #"~ seen: "no network" -> "timeout""#,
            ])
        #expect(shell.run("dispatch setError null") == [#"~ error: "timeout" -> null"#])
        #expect(
            shell.run(#"dispatch report {"code":3,"error":"boom"}"#) == [
                #"~ report: null -> {"code":3,"error":"boom"}"#
            ])
        // What prints types back: history and save write lines that replay.
        #expect(
            shell.run("history") == [
                #"  1  forecastResponse {"failure":{"_0":"offline"}}"#,
                #"  2  forecastResponse {"success":{"_0":21}}"#,
                #"  3  fail "no network""#,
                "  4  setError timeout",
                "  5  setError null",
                #"  6  report {"code":3,"error":"boom"}"#,
            ])
        let replay = self.shell()
        for line in shell.run("history") {
            replay.run("dispatch " + line.drop { $0 == " " || $0.isNumber }.drop { $0 == " " })
        }
        #expect(replay.run("state") == shell.run("state"))
    }

    @Test func anErrorParameterIsListedAsDispatchable() {
        let lines = shell().run("actions")
        #expect(lines.contains("fail(any Error)"), "\(lines)")
        #expect(lines.contains("setError((any Error)?)"), "\(lines)")
        #expect(!lines.contains { $0.contains("not dispatchable") }, "\(lines)")
        #expect(ValueBuilder.hasTextForm((any Error).self))
        #expect(ValueBuilder.hasTextForm((any Error & Sendable)?.self))
        #expect(ValueBuilder.hasTextForm(Result<Int, any Error>.self))
        #expect(!ValueBuilder.hasTextForm((() -> Void).self))
    }

    @Test(arguments: [
        ("fail 5", "argument 1 of 'fail': expected a string (the error's description), found 5"),
        ("fail null", "argument 1 of 'fail': expected a string (the error's description), found null"),
        (
            #"forecastResponse {"failure":{"_0":{"reason":"x"}}}"#,
            #"argument 1 (at failure._0) of 'forecastResponse': expected a string (the error's description), found {"reason":"x"}"#
        ),
        (
            #"report {"code":3,"error":["x"]}"#,
            #"argument 1 (at error) of 'report': expected a string (the error's description), found ["x"]"#
        ),
    ])
    func anythingButAStringIsALocatedErrorAndChangesNothing(_ arguments: String, _ message: String) {
        let shell = shell()
        shell.run("dispatch fail first")
        let output = shell.run("dispatch " + arguments)
        #expect(output.count == 1 && output[0].hasPrefix("error: " + message), "\(output)")
        #expect(shell.run("state error") == [#""first""#])
        #expect(shell.run("history").count == 1)
    }

    /// An error type of the user's own keeps its own form (its `Codable` one), and an `any Error`
    /// holding one prints as it did before strings made errors: its description.
    @Test func aUsersOwnErrorKeepsItsForm() {
        let shell = shell()
        #expect(shell.run("dispatch network offline") == [#"~ error: null -> "offline""#])
        #expect(
            shell.run(#"dispatch network {"status":{"code":404}}"#) == [#"~ error: "offline" -> "status(code: 404)""#])
        #expect(
            shell.run(#"dispatch timeout {"seconds":3}"#) == [#"~ error: "status(code: 404)" -> "Timeout(seconds: 3)""#]
        )
        #expect(shell.run("dispatch timeout offline").first?.hasPrefix("error: argument 1 of 'timeout'") == true)
        #expect(shell.run("history").first == "  1  network offline")
        let held: any Error = NetworkError.status(code: 500)
        #expect(JSONText.compact(ValueReader.read(held)) == #""status(code: 500)""#)
        let optional: (any Error)? = Timeout(seconds: 9)
        #expect(JSONText.compact(ValueReader.read(optional)) == #""Timeout(seconds: 9)""#)
        let result: Result<Int, any Error> = .failure(NetworkError.offline)
        #expect(JSONText.compact(ValueReader.read(result)) == #"{"failure":{"_0":"offline"}}"#)
    }

    @Test func theMadeErrorIsItsDescription() throws {
        let made = try ValueBuilder.build((any Error).self, from: .string("offline"), at: [])
        #expect("\(made)" == "offline")
        #expect(made.localizedDescription == "offline")
        #expect((made as? DescribedError) == DescribedError("offline"))
        #expect(JSONText.compact(ValueReader.read(made)) == #""offline""#)
        #expect(JSONText.compact(ValueReader.read(DescribedError("é ✓"))) == #""é ✓""#)
        #expect(try ValueBuilder.build(DescribedError.self, from: .string("x"), at: []) == DescribedError("x"))
    }

    /// An app's action that holds an `any Error` of the app's own type is recorded as a line that
    /// replays: its description, which makes an error that prints the same.
    @Test func aRecordedErrorReplays() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("error-\(UUID().uuidString).scenario")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let flux = Flux(state: Station(), mutation: StationMutation())
        let recorder = try ScenarioRecorder(recording: flux, as: "weather", to: path)
        flux.dispatcher.dispatch(.fail(NetworkError.status(code: 500)))
        flux.dispatcher.dispatch(.forecastResponse(.failure(DescribedError("offline"))))
        try recorder.finish()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.contains(#"dispatch fail "status(code: 500)""#), "\(lines)")
        #expect(lines.contains(#"dispatch forecastResponse {"failure":{"_0":"offline"}}"#), "\(lines)")
        let catalog = StoreCatalog([StoreDefinition("weather", state: Station(), mutation: StationMutation())])
        #expect(ScenarioRunner(catalog: catalog).run(path).passed)
    }

    @Test func exploreMakesAShortStringForAnError() throws {
        var generator = ArgumentGenerator(random: SeededRandom(seed: 7))
        for type: Any.Type in [
            (any Error).self, (any Error & Sendable)?.self, Result<Int, any Error>.self, Report.self,
        ] {
            for _ in 0..<20 {
                let made = generator.value(for: type, label: nil)
                let value = try #require(made, "\(type)")
                func build<T>(_: T.Type) throws { _ = try ValueBuilder.build(T.self, from: value, at: []) }
                try _openExistential(type, do: build)
            }
        }
        let made = generator.value(for: (any Error).self, label: nil)
        let error = try #require(made)
        guard case .string(let text) = error else {
            Issue.record("not a string: \(error)")
            return
        }
        #expect(!text.isEmpty && text.count <= 20)
    }
}
