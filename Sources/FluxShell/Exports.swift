// What a user's package reaches through `import FluxShell`: the public API of the engine's
// modules, as one module. `FluxShellSession` registers stores (`StoreDefinition`, `StoreCatalog`)
// and runs their effects; `FluxShellRunner` replays scenarios in tests (`ScenarioRunner`);
// `FluxShellLive` attaches to and records a running app (`LiveStore`, `ScenarioRecorder`); the
// values, printed-form and system modules give `DescribedError`, `JSONValue`, `ShellError` and the
// rest.
@_exported import FluxShellJSON
@_exported import FluxShellLive
@_exported import FluxShellRunner
@_exported import FluxShellSession
@_exported import FluxShellSystem
@_exported import FluxShellValues
