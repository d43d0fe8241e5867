#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every libc and environment access of the command-line layer: terminals, environment
/// variables, raw reads and writes of the standard streams, exiting; files and signals in the
/// extensions beside it, child processes in ``ChildProcess``.
///
/// Every libc call lent memory through a pointer that the code makes itself (a buffer to read
/// into or write from, bytes to compare, a socket address, a directory entry, a process's
/// arguments, a thread's start) is made in this file or in `Platform+Signals.swift`: the callers
/// hand arrays, strings and closures, never a pointer. Calls that take a value or an array by `&`,
/// which Swift lends for the call only (a wait status, a `stat`, a pipe's two descriptors, a
/// `mkdtemp` template), are made where they are used, in this module.
package enum Platform {
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The address of `name` in the process's loaded libraries (the Swift runtime's, libdispatch's).
    ///
    /// NB: untyped, as `dlsym` finds it: each caller binds it to the declaration of the symbol
    /// it names, and uses none it did not find.
    package static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)
        #else
            let everywhere: UnsafeMutableRawPointer? = nil
        #endif
        return dlsym(everywhere, name)
    }

    /// The columns of the terminal on standard output, or `nil` when it is not one (or says 0).
    package static func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Colors on standard output: on a terminal only, never with `--no-color` or `NO_COLOR`.
    package static func colorsOnStandardOutput(noColor: Bool) -> Bool {
        !noColor && environment("NO_COLOR") == nil && isTerminal(1)
    }

    package static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// Writes all of `bytes`, retrying short writes; gives up silently on a closed pipe.
    ///
    /// - Returns: 0, or the `errno` of the write that failed (the rest is not written).
    @discardableResult
    package static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// Appends what one read of at most `count` bytes gives to `bytes`: how many bytes, 0 at the
    /// end of input, -1 on an error, with `errno` as the read set it. A read a signal
    /// interrupted is tried again, unless `retryingInterrupts` is false (a caller that waits for
    /// input and checks for Ctrl-C in between).
    package static func read(
        _ descriptor: Int32, appendingTo bytes: inout [UInt8], upTo count: Int, retryingInterrupts: Bool = true
    ) -> Int {
        guard count > 0 else { return 0 }
        let oldCount = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        // NB: the array's new end is lent to read(2) for the call only, and read(2) writes no
        // more than its count: a block lands in place, with no copy. It is what read(2) takes,
        // so no measurement applies.
        var read = 0
        var error: Int32 = 0
        repeat {
            read = bytes.withUnsafeMutableBytes { raw in
                systemRead(descriptor, raw.baseAddress! + oldCount, count)
            }
            error = read < 0 ? errno : 0
        } while error == EINTR && retryingInterrupts
        bytes.removeLast(count - max(0, read))
        if read < 0 { errno = error }
        return read
    }

    /// Writes all of `bytes`, as ``write(_:_:)`` does.
    @discardableResult
    package static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
        write(descriptor, bytes[...])
    }

    /// Writes all of `bytes`, as ``write(_:_:)`` does.
    @discardableResult
    package static func write(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Int32 {
        // NB: the array's storage is lent to write(2) for the call only, which reads no more
        // than its count. It is what write(2) takes, so no measurement applies.
        bytes.withUnsafeBytes { write(descriptor, $0) }
    }

    /// Writes all of `text`'s UTF-8, as ``write(_:_:)`` does.
    @discardableResult
    package static func write(_ descriptor: Int32, _ text: String) -> Int32 {
        var text = text
        // NB: the text's own bytes, lent to write(2) for the call only, as an array's are.
        return text.withUTF8 { write(descriptor, UnsafeRawBufferPointer($0)) }
    }

    /// The text of an `errno`: `No space left on device`.
    package static func describe(errorNumber: Int32) -> String { String(cString: strerror(errorNumber)) }

    /// Whether `errorNumber` says a port to listen on is taken.
    package static func isAddressInUse(_ errorNumber: Int32) -> Bool { errorNumber == EADDRINUSE }

    /// Whether `errorNumber` is a write to a pipe whose reader went (`| head -1`).
    package static func isBrokenPipe(_ errorNumber: Int32) -> Bool { errorNumber == EPIPE }

    /// Whether `errorNumber` says the peer's host reset the connection (its process ended with
    /// bytes unread, or was killed).
    package static func isConnectionReset(_ errorNumber: Int32) -> Bool { errorNumber == ECONNRESET }

    /// Writes all of `text`, as ``write(_:_:)`` does, whether it fails or not.
    package static func writeWhole(_ descriptor: Int32, _ text: String) { write(descriptor, text) }

    package static func ignoreBrokenPipe() { signal(SIGPIPE, SIG_IGN) }

    /// A descriptor of its own for standard output, which from now on goes to standard error: a
    /// protocol spoken on standard output (`fluxsh mcp`) is then written only where it is meant,
    /// and a store's own `print` lands on standard error. `nil` when the descriptors cannot be
    /// moved (then standard output is used as it is).
    ///
    /// NB: dup(2) and dup2(2) on descriptors 1 and 2, before any other thread writes to them.
    package static func takeStandardOutput() -> Int32? {
        let own = dup(1)
        guard own >= 0 else { return nil }
        guard dup2(2, 1) >= 0 else {
            close(own)
            return nil
        }
        return own
    }

    /// A write past the file-size limit (`ulimit -f`) fails with `EFBIG`, reported as any failed
    /// write is, instead of ending the process by SIGXFSZ with no word; the child processes of
    /// `test`, `run` and `explore` inherit it.
    package static func ignoreFileSizeLimitSignal() { signal(SIGXFSZ, SIG_IGN) }

    package static func exit(_ status: Int32) -> Never { systemExit(status) }

    package static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The real user id of this process.
    package static var userID: UInt32 { UInt32(getuid()) }

    /// Whether an `errno` says the process or the system ran out of descriptors or memory, which
    /// passes (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`).
    package static func isOutOfResources(_ errorNumber: Int32) -> Bool {
        [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(errorNumber)
    }

    #if !canImport(Darwin)
        /// The socket option that gives a Unix socket's peer's credentials (`struct ucred`):
        /// `SO_PEERCRED` at level `SOL_SOCKET`.
        package static let peerCredentialsOption = (level: Int32(SOL_SOCKET), name: Int32(SO_PEERCRED))
    #endif
}

// MARK: - Sockets, folders, processes and threads

extension Platform {
    /// Sends what the socket `descriptor` takes now without waiting: how many bytes (0 when it is
    /// full), or `nil` when the other end is gone.
    package static func sendAvailable(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Int? {
        // NB: the bytes are lent to send(2) for the call only, which reads no more than their
        // count.
        let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if sent >= 0 { return sent }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
    }

    /// The names of the TCP options that tune keep-alive: the silence before the first probe,
    /// the time between probes and how many go unanswered; and Linux's limit on unacknowledged
    /// data (`nil` elsewhere). Each is an option of level `IPPROTO_TCP`.
    package static var tcpKeepAliveOptions: (idle: Int32, interval: Int32, count: Int32, userTimeout: Int32?) {
        #if canImport(Darwin)
            (TCP_KEEPALIVE, TCP_KEEPINTVL, TCP_KEEPCNT, nil)
        #else
            (Int32(TCP_KEEPIDLE), Int32(TCP_KEEPINTVL), Int32(TCP_KEEPCNT), Int32(TCP_USER_TIMEOUT))
        #endif
    }

    /// Closes `descriptor` (one this process owns and no longer uses).
    package static func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

    /// Two connected Unix stream sockets, each closed on `exec`; nil with `errno` set when none can
    /// be made.
    package static func socketPair() -> (Int32, Int32)? {
        // NB: `&pair` lends socketpair(2) the array's two elements for the call only, which is
        // what it writes.
        var pair: [Int32] = [-1, -1]
        #if canImport(Darwin)
            guard socketpair(AF_UNIX, SOCK_STREAM, 0, &pair) == 0 else { return nil }
            for descriptor in pair { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        #else
            let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            guard socketpair(AF_UNIX, kind, 0, &pair) == 0 else { return nil }
        #endif
        return (pair[0], pair[1])
    }

    /// Connects the stream socket `socket` to the socket file at `path`: 0, or -1 with `errno` set
    /// (`ENAMETOOLONG` for a path longer than a socket address holds).
    package static func connect(_ socket: Int32, toSocketAt path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            errno = ENAMETOOLONG
            return -1
        }
        // NB: the path is copied within the address's own `sun_path`, which has room for it and
        // its zero (checked above); the address is lent to connect(2) for the call only, as the
        // `sockaddr` that `sockaddr_un` extends.
        withUnsafeMutableBytes(of: &address.sun_path) { room in
            room.copyBytes(from: bytes)
            room[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// The names in `folder` (`.` and `..` left out), or the `errno` of the failure.
    package static func names(in folder: String) -> Result<[String], FileSystem.ListingFailure> {
        guard let directory = opendir(folder) else { return .failure(.init(code: errno)) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                return errno == 0 ? .success(names) : .failure(.init(code: errno))
            }
            // NB: `d_name` is a fixed array of bytes ended by a zero, valid until the next
            // `readdir` of this directory: read here, at once, up to the zero.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
    }

    /// This process's environment, as `NAME=VALUE` lines.
    package static func environmentLines() -> [String] {
        var lines: [String] = []
        var index = 0
        while let entry = environ[index] {
            lines.append(String(cString: entry))
            index += 1
        }
        return lines
    }

    /// Starts the executable at `path` with `arguments` (`argv`, its own name first) and
    /// `environment` (`NAME=VALUE` lines), standard output and error sent to files created anew
    /// (`nil`: shared with this process): its process id, or `nil`.
    package static func spawn(
        _ path: String, arguments: [String], environment: [String], standardOutput: String?, standardError: String?
    ) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, file) in [(Int32(1), standardOutput), (2, standardError)] {
            guard let file else { continue }
            posix_spawn_file_actions_addopen(&actions, descriptor, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        // NB: the C strings live until the child is spawned: strdup'd, freed below; the arrays of
        // them, ended by `nil`, are lent to posix_spawn for the call only.
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let spawned = argv.withUnsafeBufferPointer { arguments in
            envp.withUnsafeBufferPointer { environment in
                posix_spawn(&pid, path, &actions, nil, arguments.baseAddress!, environment.baseAddress!)
            }
        }
        return spawned == 0 ? pid : nil
    }

    /// Runs `body` on a new thread of its own, detached (not a queue's worker, which may all be
    /// busy); `false` when no thread could be started.
    @discardableResult
    package static func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
        // NB: the closure is retained once for the thread, which takes that reference back
        // (`takeRetainedValue`) and lets it go once `run` returns; released here if the thread
        // does not start. An opaque pointer is what pthread_create hands its thread, so no
        // measurement applies.
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        let start: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }
        #if canImport(Darwin)
            var thread: pthread_t?
            guard pthread_create(&thread, nil, start, context) == 0, let thread else {
                Unmanaged<ThreadBody>.fromOpaque(context).release()
                return false
            }
        #else
            var thread = pthread_t()
            guard pthread_create(&thread, nil, start, context) == 0 else {
                Unmanaged<ThreadBody>.fromOpaque(context).release()
                return false
            }
        #endif
        pthread_detach(thread)
        return true
    }
}

extension Platform {
    /// Whether `bytes` are the UTF-8 of `text`, compared by `memcmp` (for ``Bytes``).
    ///
    /// NB: both are lent to memcmp for the call only, within their common count. Compared as
    /// elements instead (`elementsEqual` over the string's UTF-8 view), each byte of every
    /// repeated piped line, which the runner recognizes by its bytes, cost a call.
    static func sameBytes(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
        guard bytes.count == text.utf8.count else { return false }
        return bytes.withUnsafeBufferPointer { a in
            text.utf8.withContiguousStorageIfAvailable { b in
                // NB: lines that differ mostly differ at their end (`dispatch set 41`, `… 42`).
                a.isEmpty || (a[a.count - 1] == b[a.count - 1] && memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            } ?? a.elementsEqual(text.utf8)
        }
    }

    /// Whether two strings are the same bytes, compared by `memcmp` (for ``Bytes``).
    ///
    /// NB: each string's own contiguous UTF-8 is lent to memcmp for the call only, within its count.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }.flatMap { $0 } ?? a.utf8.elementsEqual(b.utf8)
    }
}

/// A thread's work, as ``Platform/startThread(_:)`` hands it over.
private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// A pthread mutex on the heap, so that its address never moves: what ``LockedValue`` locks.
///
/// NB: not `Synchronization.Mutex`: on Linux it waits on a futex, which the thread sanitizer does
/// not see, so every access to a value it guards is reported as a race (`make tsan`).
@usableFromInline
final class PlatformMutex: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: the mutex exists to be shared between threads, and its
    // address is never reassigned.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable @inline(__always) func lock() { pthread_mutex_lock(mutex) }

    @inlinable @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
}

// NB: module-qualified names differ between Glibc, Musl and Darwin; these pin the libc calls
// that `Platform`'s own methods shadow.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
private func systemExit(_ status: Int32) -> Never { exit(status) }
private func systemConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(socket, address, length)
}

extension Platform {
    /// `mkdir -p`; whether the folder exists afterwards.
    package static func makeDirectories(_ path: String) -> Bool {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0, errno != EEXIST { return false }
        }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

extension OutputBuffer {
    /// Writes the text to `descriptor`, as ``Platform/write(_:_:)`` does: 0, or the `errno` of the
    /// write that failed.
    package func write(to descriptor: Int32) -> Int32 {
        // NB: the buffer's bytes are lent to write(2) for the call only (see `write(_:_:)`).
        withUnsafeBytes { Platform.write(descriptor, $0) }
    }

    /// Writes the text up to its last newline to `descriptor`, leaving out a line not finished:
    /// for a trap handler, since it calls nothing but write(2) and allocates nothing.
    package func writeWholeLines(to descriptor: Int32) {
        // NB: the bytes up to the newline, within the buffer's count, are lent to write(2) for the
        // call only; a slice of the array would retain its storage, which a trap handler avoids.
        withUnsafeBytes { bytes in
            guard let newline = bytes.lastIndex(of: 0x0A) else { return }
            Platform.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[...newline]))
        }
    }
}
