#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Platform {
    /// A file of records that a process may die in the middle of writing: each record is one
    /// whole, unbuffered write, so whatever was written before a trap is in the file.
    ///
    /// Created with mode 0600, never through a symbolic link, and not inherited by children.
    package struct RecordFile {
        private let descriptor: Int32

        /// Opens `path` for appending, creating it; `emptied` truncates it first.
        package init?(path: String, emptied: Bool) {
            let flags = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC | (emptied ? O_TRUNC : 0)
            descriptor = open(path, flags, 0o600)
            guard descriptor >= 0 else { return nil }
        }

        /// Writes `text` as one record.
        package func append(_ text: String) { Platform.writeWhole(descriptor, text) }

        /// Removes every record.
        package func empty() { ftruncate(descriptor, 0) }

        package func close() { _ = systemClose(descriptor) }
    }

    /// Removes a file; a missing one is not an error.
    package static func removeFile(_ path: String) { unlink(path) }

    /// Removes an empty folder; a missing or non-empty one is left as it is.
    package static func removeFolder(_ path: String) { rmdir(path) }

    /// Nanoseconds of the wall clock, for a seed that differs from run to run.
    package static func wallClockNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(bitPattern: Int64(time.tv_sec)) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

// NB: `RecordFile.close` shadows libc's `close` inside the type.
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
