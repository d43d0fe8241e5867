// What a user's package reaches through `import FluxShell`: the values module's public types
// (`JSONValue`, `ValuePath`, `DiffEntry`, `DescribedError`, …) and the system module's
// (`ShellError`), as when they were part of this module.
@_exported import FluxShellSystem
@_exported import FluxShellValues
