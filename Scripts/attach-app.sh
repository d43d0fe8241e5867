# Sourced by the scripts that time or profile `fluxsh attach` (bench-attach.sh, count-hops.sh): a
# running app for it, `attach-demo`, fed its standard input through a pipe the script holds.
#   start_app BUILD NAME [COMMAND...]   starts BUILD/attach-demo NAME (under COMMAND, such as
#                                       valgrind), with a runtime folder of its own in $work, and
#                                       returns once it serves its socket
#   stop_app                            tells it to stop, and waits for it to exit

start_app() {
    local build=$1 name=$2
    shift 2
    export XDG_RUNTIME_DIR="$work/run.$name"
    rm -rf "$XDG_RUNTIME_DIR"
    mkdir -m 700 "$XDG_RUNTIME_DIR"
    mkfifo "$XDG_RUNTIME_DIR/app-input"
    "$@" "$build/attach-demo" "$name" <"$XDG_RUNTIME_DIR/app-input" >/dev/null 2>&1 &
    app=$!
    exec 3>"$XDG_RUNTIME_DIR/app-input"
    # NB: an app under valgrind takes seconds to serve its socket.
    for _ in $(seq 1 1200); do
        [ -S "$XDG_RUNTIME_DIR/fluxsh/$name.sock" ] && return
        sleep 0.1
    done
    echo "the app $name never served its socket" >&2
    exit 1
}

stop_app() {
    echo stop >&3
    exec 3>&-
    wait "$app"
}
