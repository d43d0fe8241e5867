import FluxShell

extension AttachConnection {
    /// Reads what is available (blocking until something is); `nil` at the end of the stream (or
    /// when the app reset the connection).
    /// Returns the whole frames received (``AttachWire``); text that is not a frame is skipped.
    func receive() -> [AttachWire.Frame]? {
        receiveLines()?.compactMap { AttachWire.Frame(line: $0[...]) }
    }
}
