import Dispatch
import FluxShellRunner
import FluxShellSystem
import Foundation
import Logging
import MCP

/// The protocol's stdio transport, one JSON message a line: standard input read on a thread of
/// its own, blocked in `read(2)` until a line comes (the SDK's own transport polls a non-blocking
/// descriptor every 10 ms, which made each call wait up to that long); standard output written a
/// whole line at a time.
actor LineTransport: Transport {
    nonisolated let logger: Logger
    private let messages: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private let output: OutputFile
    private var isReading = false

    /// - Parameter output: the descriptor the protocol is written to (standard output's own).
    init(logger: Logger, output: Int32) {
        self.logger = logger
        self.output = OutputFile(descriptor: output)
        (messages, continuation) = AsyncThrowingStream.makeStream()
    }

    func connect() async throws {
        guard !isReading else { return }
        isReading = true
        let continuation = continuation
        // NB: a queue of its own, not the concurrency pool's: the thread waits in read(2).
        DispatchQueue(label: "fluxsh.mcp.read").async {
            var lines = LineReader { bytes, count in Platform.read(0, appendingTo: &bytes, upTo: count) }
            var tooLong = false
            while let line = lines.nextLine(tooLong: &tooLong) {
                // NB: a line over the reader's 16 MiB is no message the protocol could answer.
                if tooLong || line.isEmpty { continue }
                continuation.yield(Data(line))
            }
            continuation.finish()
        }
    }

    func disconnect() async { continuation.finish() }

    func send(_ data: Data) async throws {
        if let code = output.write(String(decoding: data, as: UTF8.self) + "\n") {
            throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
        }
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Error> { messages }
}
