# Helpers for the lab's guest scenarios (sourced by /init; busybox sh).
#
# A scenario leaves files in $OUT (/results/<scenario>): what lodestone printed, its exit
# status, the report stream, the status output, and notes of what the scenario did. It
# judges nothing itself: lab/judge.py does that on the host.

# The chips' addresses on the stub bus: QMC5883L, MPU-6050, BMP280.
STUB_ADDRESSES=0x0d,0x68,0x76
SOCKET=/run/lodestone-lab.sock
# i2c-tools by full path: busybox's shell would otherwise run its own i2cset applet, which
# reads numbers differently (a register written in decimal is taken as hexadecimal).
I2CSET=/usr/sbin/i2cset
LODESTONE_PID=""

note() { echo "lab: [$SCENARIO] $*"; }

# Runs one scenario function in its own results folder, with a fresh bus, never letting
# one scenario's failure stop the others.
run_scenario() {
    SCENARIO=$1
    OUT=/results/$SCENARIO
    mkdir -p "$OUT"
    note "start"
    if type "scenario_$(echo "$SCENARIO" | tr '-' '_')" >/dev/null 2>&1; then
        "scenario_$(echo "$SCENARIO" | tr '-' '_')" >"$OUT/scenario.log" 2>&1
        echo $? >"$OUT/scenario.rc"
    else
        echo "no such scenario" >"$OUT/scenario.log"
        echo 127 >"$OUT/scenario.rc"
    fi
    stop_lodestone
    release_kernel_clients
    note "done"
}

# --- the I2C bus -----------------------------------------------------------------------------

# The /dev/i2c-N of the stub adapter (its number depends on what else registered adapters).
find_stub_bus() {
    local adapter
    for adapter in /sys/bus/i2c/devices/i2c-*; do
        if [ "$(cat "$adapter/name" 2>/dev/null)" = "SMBus stub driver" ]; then
            BUSNUM=${adapter##*/i2c-}
            BUS=/dev/i2c-$BUSNUM
            return 0
        fi
    done
    return 1
}

# Removes the clients a scenario created with new_device, so the stub can be unloaded.
release_kernel_clients() {
    local client address
    find_stub_bus || return 0
    for client in /sys/bus/i2c/devices/"$BUSNUM"-00*; do
        [ -e "$client" ] || continue
        address=0x${client##*-00}
        echo "$address" >"/sys/bus/i2c/devices/i2c-$BUSNUM/delete_device"
    done
}

# A fresh stub bus with every chip's register image; extra arguments go to i2c-stub (such as
# functionality=MASK).
load_stub() {
    release_kernel_clients
    rmmod i2c-stub 2>/dev/null
    modprobe i2c-stub chip_addr=$STUB_ADDRESSES "$@" || return 1
    find_stub_bus || return 1
    local image
    for image in /lab/registers/*.regs; do
        preload "$image" || return 1
    done
    echo "stub bus $BUS ($*)"
}

# Writes a register image (lines: address, first register, bytes) into the stub, one SMBus
# byte write per register, which every functionality setting allows.
preload() {
    local address register value
    grep -v '^#' "$1" | while read -r address register values; do
        [ -n "$address" ] || continue
        register=$((register))
        for value in $values; do
            $I2CSET -y "$BUSNUM" "$address" "$(printf 0x%02x "$register")" "$value" b || exit 1
            register=$((register + 1))
        done
    done
}

# Writes one register of the stub.
poke() { $I2CSET -y "$BUSNUM" "$1" "$2" "$3" "${4:-b}"; }

# A board file for the stub bus from one of /lab/boards.
board() {
    sed "s#/dev/i2c-0#$BUS#" "/lab/boards/$1" >/tmp/board.json
    echo /tmp/board.json
}

# Binds a kernel driver to an address, as a device-tree overlay would at boot.
bind_kernel_driver() {
    echo "$1 $2" >"/sys/bus/i2c/devices/i2c-$BUSNUM/new_device"
    sleep 1
    local client=/sys/bus/i2c/devices/$BUSNUM-00${2#0x}
    if [ -e "$client/driver" ]; then
        echo "$(readlink "$client/driver") bound to $2" | tee -a "$OUT/kernel-driver.txt"
    else
        echo "no driver bound to $2" | tee -a "$OUT/kernel-driver.txt"
    fi
}

# --- lodestone -------------------------------------------------------------------------------

# Starts `lodestone run` in the background with the given options; its output goes to
# $OUT/run.out and run.err. wait_lodestone or stop_lodestone writes its exit status to run.rc.
start_lodestone() {
    rm -rf /tmp/data "$SOCKET"
    mkdir -p /tmp/data
    echo "lodestone run --socket $SOCKET --data-dir /tmp/data $*" >"$OUT/run.cmd"
    lodestone run --socket "$SOCKET" --data-dir /tmp/data "$@" >"$OUT/run.out" 2>"$OUT/run.err" &
    LODESTONE_PID=$!
    wait_for_socket
}

# Waits up to 30 s for the socket to appear (the program's start under emulation).
wait_for_socket() {
    local tries=0
    while [ ! -S "$SOCKET" ] && [ $tries -lt 150 ] && running "$LODESTONE_PID"; do
        sleep 0.2
        tries=$((tries + 1))
    done
    [ -S "$SOCKET" ] && echo "socket up after $((tries / 5)) s"
}

# Whether a process is alive; an exited child stays a zombie until waited for, which kill -0
# would still find.
running() {
    local state
    state=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)
    [ -n "$state" ] && [ "$state" != Z ]
}

# Waits for the running lodestone to end by itself (its --duration), up to `$1` seconds, and
# records its exit status; false when it is still running then.
wait_lodestone() {
    local limit=$((${1:-30} * 5)) tries=0
    [ -n "$LODESTONE_PID" ] || return 0
    while running "$LODESTONE_PID" && [ $tries -lt $limit ]; do
        sleep 0.2
        tries=$((tries + 1))
    done
    running "$LODESTONE_PID" && return 1
    wait "$LODESTONE_PID"
    echo $? >"$OUT/run.rc"
    LODESTONE_PID=""
}

# Stops a lodestone still running with SIGTERM (which it handles), as a scenario ends.
stop_lodestone() {
    [ -n "$LODESTONE_PID" ] || return 0
    if running "$LODESTONE_PID"; then
        echo "lodestone still running at the end of the scenario: SIGTERM" >>"$OUT/scenario.log"
        # What each of its threads was doing, for the judge's reader (hung.txt).
        for task in /proc/"$LODESTONE_PID"/task/*; do
            echo "$(cat "$task/comm" 2>/dev/null) wchan=$(cat "$task/wchan" 2>/dev/null) syscall=$(cat "$task/syscall" 2>/dev/null)"
        done >"$OUT/hung.txt" 2>&1
        ls -l /proc/"$LODESTONE_PID"/fd >>"$OUT/hung.txt" 2>&1
        kill -TERM "$LODESTONE_PID"
    fi
    if ! wait_lodestone 10; then
        echo "lodestone did not stop on SIGTERM: SIGKILL" >>"$OUT/scenario.log"
        kill -KILL "$LODESTONE_PID"
        wait_lodestone 5
    fi
    LODESTONE_PID=""
}

# Records the report stream into `$1`, in the background, until lodestone stops (the
# connection closes). SIGINT would not do to stop it earlier: a background job of a script
# ignores it. The timeout only guards against a lodestone that never stops.
watch_reports() {
    ( timeout -s TERM 120 lodestone watch --socket "$SOCKET" --count 10000000 >"$1" 2>"$1.err" ) &
}

# The DEVICES report as a new client sees it now (the stream's first lines), into `$1`.
snapshot_devices() {
    timeout -s TERM 15 lodestone watch --socket "$SOCKET" --count 3 >"$1" 2>"$1.err"
}

# `lodestone status`, plain and --json, into `$1`.txt and `$1`.json.
snapshot_status() {
    timeout -s TERM 15 lodestone status --socket "$SOCKET" >"$1.txt" 2>"$1.txt.err"
    timeout -s TERM 15 lodestone status --socket "$SOCKET" --json >"$1.json" 2>"$1.json.err"
}

# --- the host --------------------------------------------------------------------------------

# Asks the host agent to do something only the host can (unplug the GPS socket, take a
# screendump) and waits for it to say it is done.
REQUEST=0
host_do() {
    REQUEST=$((REQUEST + 1))
    local id=$SCENARIO-$REQUEST tries=0
    echo "$*" >"/results/control/$id.req.part"
    mv "/results/control/$id.req.part" "/results/control/$id.req"
    while [ ! -e "/results/control/$id.ack" ] && [ $tries -lt 300 ]; do
        sleep 0.2
        tries=$((tries + 1))
    done
    if [ -e "/results/control/$id.ack" ]; then
        echo "host did: $* ($(cat "/results/control/$id.ack"))"
    else
        echo "host did not answer: $*"
        return 1
    fi
}
