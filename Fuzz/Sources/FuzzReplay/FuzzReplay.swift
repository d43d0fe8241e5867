import Foundation

/// What a fuzzer built without libFuzzer does: it runs its target on each file named on its
/// command line, and on every file of each folder named (a corpus), as libFuzzer would. So
/// `swift build` builds the fuzzers with everything else, and `.build/debug/fluxfuzz crash-…`
/// replays what a fuzzing run found, in a debugger if need be.
public enum FuzzReplay {
    public static func run(_ target: (UnsafePointer<UInt8>, Int) -> Int32) {
        var count = 0
        // NB: absolute paths first: a target may change the working folder (it runs its inputs in
        // a temporary one).
        let here = FileManager.default.currentDirectoryPath
        let paths = CommandLine.arguments.dropFirst().map { $0.hasPrefix("/") ? $0 : here + "/" + $0 }
        for path in paths {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("cannot read '\(file)'\n".utf8))
                    exit(2)
                }
                // NB: the pointer is the target's C signature, libFuzzer's; it is valid during the call,
                // which reads `data.count` bytes and keeps nothing. One byte more, so that an empty
                // input is a pointer too, never null, as libFuzzer gives it.
                let bytes = [UInt8](data) + [0]
                _ = bytes.withUnsafeBufferPointer { target($0.baseAddress!, data.count) }
                count += 1
            }
        }
        print("replayed \(count) inputs: no crash")
    }

    /// The file at `path`, or the files of the folder at `path`, in order.
    private static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }
}
