# The lab's scenarios (sourced by /init; busybox sh). Each does what a user or the hardware
# would do and keeps what came out in $OUT; lab/judge.py says what that must be.

# `lodestone probe` on the stub bus with the three chips' images.
scenario_probe() {
    load_stub || return 1
    lodestone probe --bus "$BUS" --json >"$OUT/probe.json" 2>"$OUT/probe.err"
    echo $? >"$OUT/probe.rc"
    lodestone probe --bus "$BUS" >"$OUT/probe.txt" 2>&1
}

# The lab board on the stub: first the preloaded images as they are, then a feeder moves the
# magnetometer's X and the barometer's pressure reading several times a second, as a chip's
# conversions would; the reports must follow.
scenario_values() {
    load_stub || return 1
    # Long enough for the feeder's 19 steps at their slowest under emulation (two i2cset calls
    # each, ~0.5 s a step on a busy host): the last value must still be read.
    start_lodestone --board "$(board lab.json)" --display none --duration 26 || return 1
    watch_reports "$OUT/watch.jsonl"
    sleep 5
    snapshot_status "$OUT/status"
    move_values >"$OUT/feeder.log"
    sleep 2
    wait_lodestone 30
}

# Moves the magnetometer's X and the barometer's pressure reading through a sequence, one
# step every 0.25 s. i2c-stub keeps each register as its own word, so a chip's multi-byte
# value cannot be written in one SMBus transfer, and two byte writes could be read half done:
# each step changes one byte only. X's low byte (register 0x00, high byte 0x02) goes from 0x1c
# in steps of 0x0c (12 counts, 0.4 microtesla at 8 G); press_lsb (0xF8) goes up by 0x10 (256
# counts of adc_P) every fourth step. Each line of the log: step, X low byte, press_lsb.
move_values() {
    local step=1 x lsb
    while [ $step -le 19 ]; do
        x=$((0x10 + 0x0c * step))
        lsb=$((0x5a + 0x10 * (step / 4)))
        poke 0x0d 0x00 "$x"
        poke 0x76 0xf8 "$lsb"
        echo "$step $x $lsb"
        sleep 0.25
        step=$((step + 1))
    done
}

# A recording in the lab: the chips on the kernel's i2c-dev and the receiver on the UART,
# recorded while the magnetometer and the barometer move; the host replays it and judges it.
scenario_record() {
    load_stub || return 1
    rm -f /tmp/lab.rec
    start_lodestone --board "$(board lab.json)" --display none --duration 24 --record /tmp/lab.rec || return 1
    watch_reports "$OUT/watch.jsonl"
    sleep 4
    move_values >"$OUT/feeder.log"
    wait_lodestone 40
    cp /tmp/lab.rec "$OUT/lab.rec"
}

# The GPS on the UART: the host writes NMEA into /dev/ttyS1 all along; after 8 s it pulls the
# receiver's cable (closes its end of the serial socket) for 6 s and plugs it back.
scenario_uart() {
    load_stub || return 1
    start_lodestone --board "$(board lab.json)" --display none --duration 30 || return 1
    watch_reports "$OUT/watch.jsonl"
    sleep 8
    host_do unplug-gps 6
    sleep 10
    snapshot_status "$OUT/status"
    wait_lodestone 40
}

# A still from the kernel's virtual camera (vivid, one capture node, its webcam input) with the
# GPS fix from the UART: `lodestone probe` must find the camera, `lodestone photo take` must
# capture through V4L2's memory-mapped streaming and keep a JPEG whose EXIF holds the fix. The
# photo and the device's PHOTO answer go to $OUT for the judge (it decodes the JPEG and reads
# the EXIF on the host).
scenario_camera() {
    load_stub || return 1
    modprobe vivid n_devs=1 node_types=0x1 || return 1
    wait_for_path /dev/video0
    cat /sys/class/video4linux/video0/name >"$OUT/video0.name" 2>&1
    lodestone probe --bus "$BUS" --json >"$OUT/probe.json" 2>"$OUT/probe.err"
    start_lodestone --board "$(board lab-camera.json)" --display none --duration 40 || return 1
    watch_reports "$OUT/watch.jsonl"
    # A fix first: the host feeds the UART once a second, and the filter wants a few.
    local tries=0
    until grep '"class":"TPV"' "$OUT/watch.jsonl" 2>/dev/null | grep -q '"mode":3' || [ $tries -ge 30 ]; do
        sleep 1
        tries=$((tries + 1))
    done
    note "fix after $tries s"
    timeout -s TERM 30 lodestone photo take --socket "$SOCKET" --json >"$OUT/photo.json" 2>"$OUT/photo.err"
    echo $? >"$OUT/photo.rc"
    # A second one with the camera already streaming: the shutter's time as a user sees it.
    timeout -s TERM 30 lodestone photo take --socket "$SOCKET" --json >"$OUT/photo2.json" 2>"$OUT/photo2.err"
    lodestone photo list --data-dir /tmp/data >"$OUT/photos.txt" 2>&1
    cp /tmp/data/photos/*.jpg "$OUT/" 2>/dev/null
    wait_lodestone 60
}

# The kernel's own bmp280 driver owns 0x76 before lodestone starts (as a device-tree overlay
# left enabled would): lodestone must still start, run the other sensors, and say why the
# barometer cannot be read.
scenario_fault_kernel_before() {
    load_stub || return 1
    modprobe bmp280-i2c
    bind_kernel_driver bmp280 0x76
    start_lodestone --board "$(board lab.json)" --display none --duration 14 || return 1
    watch_reports "$OUT/watch.jsonl"
    sleep 6
    snapshot_devices "$OUT/devices.jsonl"
    snapshot_status "$OUT/status"
    wait_lodestone 30
}

# The same driver takes 0x76 while lodestone is running.
scenario_fault_kernel_after() {
    load_stub || return 1
    modprobe bmp280-i2c
    start_lodestone --board "$(board lab.json)" --display none --duration 20 || return 1
    watch_reports "$OUT/watch.jsonl"
    sleep 5
    snapshot_devices "$OUT/devices-before.jsonl"
    bind_kernel_driver bmp280 0x76
    sleep 7
    snapshot_devices "$OUT/devices.jsonl"
    snapshot_status "$OUT/status"
    wait_lodestone 30
}

# Another chip answers at the barometer's address: its ID register reads 0x55.
scenario_wrong_chip() {
    load_stub || return 1
    poke 0x76 0xd0 0x55
    start_lodestone --board "$(board lab.json)" --display none --duration 12 || return 1
    watch_reports "$OUT/watch.jsonl"
    sleep 6
    snapshot_devices "$OUT/devices.jsonl"
    snapshot_status "$OUT/status"
    wait_lodestone 30
}

# The pages on a real DRM framebuffer (bochs, QEMU's VGA): the host takes screendumps before,
# while lodestone draws, and after it has exited.
scenario_framebuffer() {
    load_framebuffer || return 1
    load_stub || return 1
    host_do screendump framebuffer/before.ppm
    start_lodestone --board "$(board lab.json)" --display fb:/dev/fb0 --duration 12 || return 1
    sleep 7
    host_do screendump framebuffer/live.ppm
    wait_lodestone 30
    sleep 1
    host_do screendump framebuffer/after.ppm
}

# bochs with its fbdev emulation gives /dev/fb0.
load_framebuffer() {
    [ -e /dev/fb0 ] || modprobe bochs
    local tries=0
    while [ ! -e /dev/fb0 ] && [ $tries -lt 50 ]; do sleep 0.1; tries=$((tries + 1)); done
    for field in name virtual_size bits_per_pixel stride; do
        echo "$field $(cat /sys/class/graphics/fb0/$field 2>/dev/null)"
    done >"$OUT/fb0.txt"
    [ -e /dev/fb0 ]
}

# Paths that cannot work must fail cleanly and create nothing: a framebuffer that does not
# exist, a socket in a folder that does not exist.
scenario_bad_paths() {
    load_framebuffer
    load_stub || return 1
    rm -rf /tmp/data && mkdir -p /tmp/data
    timeout -s TERM 30 lodestone run --board "$(board lab.json)" --display fb:/dev/fb9 --socket "$SOCKET" \
        --data-dir /tmp/data --duration 4 >"$OUT/fb9.out" 2>"$OUT/fb9.err"
    echo $? >"$OUT/fb9.rc"
    ls -la /dev/fb9* >"$OUT/fb9.exists" 2>/dev/null || rm -f "$OUT/fb9.exists"
    rm -rf /dev/fb9*
    timeout -s TERM 30 lodestone run --board "$(board lab.json)" --display none --socket /nonexistent/dir/s.sock \
        --data-dir /tmp/data --duration 4 >"$OUT/socket.out" 2>"$OUT/socket.err"
    echo $? >"$OUT/socket.rc"
    ls -la /nonexistent >"$OUT/nonexistent.exists" 2>/dev/null || rm -f "$OUT/nonexistent.exists"
    rm -rf /nonexistent
}

# An adapter without I2C block reads (as many SMBus controllers are): i2c-stub's functionality
# mask hides I2C_FUNC_SMBUS_READ_I2C_BLOCK and WRITE_I2C_BLOCK, so every burst must be made of
# byte reads.
scenario_smbus_fallback() {
    load_stub functionality=0xf3ffffff || return 1
    i2cdetect -F "$BUSNUM" >"$OUT/functionality.txt" 2>&1
    start_lodestone --board "$(board lab.json)" --display none --duration 10 || return 1
    watch_reports "$OUT/watch.jsonl"
    sleep 6
    snapshot_status "$OUT/status"
    wait_lodestone 30
}

# A normal user in the lodestone group, with the devices given to that group as
# udev/99-lodestone.rules does. First, before the devices are given: the error must say how.
scenario_normal_user() {
    load_stub || return 1
    chmod 0777 "$OUT"
    local home=/tmp/lab-user socket=/tmp/lab-user/lodestone.sock
    rm -rf $home && mkdir -p $home && chown lab:lab $home
    as_lab "id" >"$OUT/id.txt" 2>&1
    as_lab "lodestone probe --bus $BUS" >"$OUT/denied.out" 2>"$OUT/denied.err"
    echo $? >"$OUT/denied.rc"
    chgrp lodestone "$BUS" /dev/ttyS1
    chmod 0660 "$BUS" /dev/ttyS1
    ls -la "$BUS" /dev/ttyS1 >"$OUT/devices.txt"
    board lab.json >/dev/null && chmod 0644 /tmp/board.json
    as_lab "lodestone run --board /tmp/board.json --display none --socket $socket --data-dir $home/data \
        --duration 12 >$OUT/run.out 2>$OUT/run.err; echo \$? >$OUT/run.rc" &
    wait_for_path "$socket"
    ( as_lab "timeout -s TERM 60 lodestone watch --socket $socket --count 10000000" >"$OUT/watch.jsonl" 2>"$OUT/watch.jsonl.err" ) &
    sleep 6
    as_lab "lodestone status --socket $socket --json" >"$OUT/status.json" 2>"$OUT/status.json.err"
    ls -la $socket >"$OUT/socket.txt" 2>&1
    wait
}

as_lab() { su -s /bin/sh lab -c "$1"; }

# Waits up to 30 s for a file to appear.
wait_for_path() {
    local tries=0
    while [ ! -e "$1" ] && [ $tries -lt 150 ]; do sleep 0.2; tries=$((tries + 1)); done
}

# Buttons, buzzer and LED on a simulated GPIO chip (gpio-sim, labelled lodestone-lab, built by
# lab/gpio-sim/build): the snapshot button (line 1) is pressed by pulling its line down for
# 0.4 s, as the button shorting it to ground would; the buzzer (4) and LED (5) are watched.
# Then the anemometer's reed switch (line 6) closes and opens for 6 s as fast as the shell
# can, its closures and their span written to anemometer.txt for the judge to turn into a speed.
scenario_gpio() {
    load_gpio_sim || return 1
    load_stub || return 1
    start_lodestone --board "$(board lab-gpio.json)" --display none --duration 22 || return 1
    watch_reports "$OUT/watch.jsonl"
    sleep 4
    local lines=$GPIO_SYSFS
    echo "before press: snapshot $(cat $lines/sim_gpio1/value) buzzer $(cat $lines/sim_gpio4/value) led $(cat $lines/sim_gpio5/value)"
    watch_outputs "$lines" 4 >"$OUT/outputs.txt" &
    local watcher=$! tries=0
    # The press waits for the watcher's first reading of both lines: under emulation a
    # background shell can take longer to start than the device takes to answer the press.
    while [ "$(wc -l <"$OUT/outputs.txt")" -lt 2 ] && [ $tries -lt 100 ]; do sleep 0.05; tries=$((tries + 1)); done
    echo pull-down >"$lines/sim_gpio1/pull"
    sleep 0.4
    echo pull-up >"$lines/sim_gpio1/pull"
    wait $watcher
    spin_anemometer "$lines/sim_gpio6/pull" 6 >"$OUT/anemometer.txt"
    wait_lodestone 30
}

# Closes and opens the reed switch on `$1` for `$2` seconds, each state held 50 ms; prints the
# closures and the uptime of the first and the last.
spin_anemometer() {
    local pull=$1 now rest first="" last="" closures=0 until
    read -r now rest </proc/uptime
    until=$(( ${now%.*} + $2 ))
    while :; do
        echo pull-down >"$pull"
        read -r now rest </proc/uptime
        [ -z "$first" ] && first=$now
        last=$now
        closures=$((closures + 1))
        sleep 0.05
        echo pull-up >"$pull"
        sleep 0.05
        [ "${now%.*}" -ge "$until" ] && break
    done
    echo "closures $closures first $first last $last"
}

# Loads gpio-sim and makes one chip of 8 lines through configfs; GPIO_SYSFS is then its
# folder of sim_gpioN attributes.
load_gpio_sim() {
    [ -f /lab/gpio-sim/gpio-sim.ko ] || { echo "no gpio-sim modules in the initramfs"; return 1; }
    modprobe configfs
    grep -q " /sys/kernel/config " /proc/mounts || mount -t configfs configfs /sys/kernel/config
    insmod /lab/gpio-sim/irq_sim.ko 2>/dev/null
    insmod /lab/gpio-sim/gpio-sim.ko 2>/dev/null
    local device=/sys/kernel/config/gpio-sim/lab
    mkdir -p $device/bank0
    echo lodestone-lab >$device/bank0/label
    echo 8 >$device/bank0/num_lines
    echo 1 >$device/live
    GPIO_SYSFS=/sys/devices/platform/$(cat $device/dev_name)/$(cat $device/bank0/chip_name)
    echo "gpio-sim chip $(cat $device/bank0/chip_name) at $GPIO_SYSFS"
    [ -e "$GPIO_SYSFS/sim_gpio1/pull" ]
}

# Polls the buzzer's and LED's lines for `$2` seconds and prints each change ("buzzer 1"),
# reading with the shell's own read so that a short blip is not missed between forks.
watch_outputs() {
    local folder=$1 until now rest buzzer led last_buzzer="" last_led=""
    read -r now rest </proc/uptime
    until=$(( ${now%.*} + $2 ))
    while :; do
        read -r buzzer <"$folder/sim_gpio4/value"
        read -r led <"$folder/sim_gpio5/value"
        [ "$buzzer" != "$last_buzzer" ] && echo "buzzer $buzzer" && last_buzzer=$buzzer
        [ "$led" != "$last_led" ] && echo "led $led" && last_led=$led
        read -r now rest </proc/uptime
        [ "${now%.*}" -ge "$until" ] && break
    done
}
