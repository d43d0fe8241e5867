import FuzzReplay

#if !FUZZING
    /// Built without libFuzzer (`swift build`): replays the inputs named on the command line.
    @main enum Replay {
        static func main() { FuzzReplay.run(fuzzOneInput) }
    }
#endif
