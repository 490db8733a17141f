# shellcheck shell=bash
# Common helpers for the mlx5emu scripts: cache location, the apt mirror taken
# from this machine's own apt configuration, and a private apt configuration
# (deb-src, bookworm-backports, trixie, sid) that never touches /etc/apt.

set -euo pipefail

MLX5EMU_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MLX5EMU_CACHE=${MLX5EMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mlx5emu}
# Pinned QEMU: Debian trixie's qemu source package (10.0.x).
QEMU_DEB_SUITE=${QEMU_DEB_SUITE:-trixie}
QEMU_UPSTREAM_SERIES=10.0
mkdir -p "$MLX5EMU_CACHE"

log() { printf '[mlx5emu] %s\n' "$*" >&2; }
die() { printf '[mlx5emu] error: %s\n' "$*" >&2; exit 1; }

# The Debian archive URI this machine already uses (first "debian" entry of
# its apt sources, deb822 or one-line format). Never hard-coded in the repo.
apt_mirror() {
    if [ -n "${MLX5EMU_MIRROR:-}" ]; then echo "$MLX5EMU_MIRROR"; return; fi
    local f uri
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -e "$f" ] || continue
        uri=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' "$f")
        [ -n "$uri" ] && { echo "${uri%/}"; return; }
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -e "$f" ] || continue
        uri=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' "$f")
        [ -n "$uri" ] && { echo "${uri%/}"; return; }
    done
    die "cannot find a Debian mirror in /etc/apt"
}

# A private apt configuration: its own sources list, lists and archives under
# the cache; the system's /etc/apt stays as it is.
PRIVATE_APT_DIR=$MLX5EMU_CACHE/apt
private_apt_init() {
    local m; m=$(apt_mirror)
    mkdir -p "$PRIVATE_APT_DIR/lists/partial" "$PRIVATE_APT_DIR/archives/partial"
    local want
    want=$(cat <<EOT
deb $m bookworm main
deb $m bookworm-backports main
deb-src $m trixie main
EOT
)
    if [ ! -f "$PRIVATE_APT_DIR/sources.list" ] || [ "$(cat "$PRIVATE_APT_DIR/sources.list")" != "$want" ]; then
        printf '%s\n' "$want" > "$PRIVATE_APT_DIR/sources.list"
        rm -f "$PRIVATE_APT_DIR/.updated"
    fi
    if [ ! -f "$PRIVATE_APT_DIR/.updated" ] || \
       [ -n "$(find "$PRIVATE_APT_DIR/.updated" -mmin +1440 2>/dev/null)" ]; then
        log "apt-get update (private lists)"
        private_apt update -qq
        touch "$PRIVATE_APT_DIR/.updated"
    fi
}
private_apt() {
    apt-get -o Dir::Etc::SourceList="$PRIVATE_APT_DIR/sources.list" \
            -o Dir::Etc::SourceParts=/nonexistent \
            -o Dir::State::Lists="$PRIVATE_APT_DIR/lists" \
            -o Dir::Cache::Archives="$PRIVATE_APT_DIR/archives" \
            -o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root "$@"
}

# Host packages the build, the guests and the tests need.
HOST_PACKAGES=(
    build-essential pkg-config ninja-build ccache git
    libglib2.0-dev zlib1g-dev libpixman-1-dev libslirp-dev libattr1-dev libcap-ng-dev
    python3 python3-venv dpkg-dev
    debootstrap busybox-static cpio xz-utils zstd kmod iproute2
    seabios ipxe-qemu qemu-system-data
    linux-headers-amd64 clang libclang-rt-14-dev tshark
    libibverbs-dev
)

host_setup() {
    local stamp=$MLX5EMU_CACHE/.host-setup-v2
    if [ -f "$stamp" ] && command -v meson >/dev/null && \
       meson_ok && command -v debootstrap >/dev/null; then
        return
    fi
    [ "$(id -u)" = 0 ] || die "host set-up installs packages: run as root"
    private_apt_init
    log "installing host packages"
    export DEBIAN_FRONTEND=noninteractive
    private_apt install -y -qq --no-install-recommends "${HOST_PACKAGES[@]}" >/dev/null
    # QEMU 10 needs meson >= 1.5: bookworm-backports has it.
    private_apt install -y -qq --no-install-recommends -t bookworm-backports meson >/dev/null
    meson_ok || die "meson >= 1.5 not installed"
    touch "$stamp"
}

meson_ok() {
    local v; v=$(meson --version 2>/dev/null) || return 1
    [ "$(printf '%s\n1.5.0\n' "$v" | sort -V | head -1)" = 1.5.0 ]
}

# --- QEMU -----------------------------------------------------------------

# Echo the path of a pristine QEMU tree: $QEMU_SRC if the user gave one,
# otherwise Debian's qemu source package for $QEMU_DEB_SUITE, unpacked once
# into the cache.
qemu_source() {
    if [ -n "${QEMU_SRC:-}" ]; then
        [ -f "$QEMU_SRC/meson.build" ] || die "QEMU_SRC=$QEMU_SRC is not a QEMU tree"
        (cd "$QEMU_SRC" && pwd); return
    fi
    local dir=$MLX5EMU_CACHE/qemu-src
    local tree
    tree=$(ls -d "$dir"/qemu-"$QEMU_UPSTREAM_SERIES".*/ 2>/dev/null | sort -V | tail -1)
    if [ -z "$tree" ] || [ ! -f "$tree/.mlx5emu-unpacked" ]; then
        private_apt_init
        mkdir -p "$dir"
        log "fetching Debian $QEMU_DEB_SUITE qemu source package"
        (cd "$dir" && private_apt source -qq --download-only qemu >/dev/null)
        local dsc; dsc=$(ls "$dir"/qemu_"$QEMU_UPSTREAM_SERIES".*.dsc | sort -V | tail -1)
        local ver; ver=$(basename "$dsc" .dsc); ver=${ver#qemu_}; ver=${ver%%+*}
        tree=$dir/qemu-$ver
        rm -rf "$tree"
        (cd "$dir" && dpkg-source -q --no-check -x "$dsc" "qemu-$ver" >/dev/null)
        touch "$tree/.mlx5emu-unpacked"
    fi
    echo "${tree%/}"
}

# Make the project part of a QEMU tree: hw/mlx5/ holds links to the files
# of the project's hw/ and to firmware-sim/, hw-rdma/ and tools/; QEMU gets
# one subdir() line, one Kconfig source line, the trace-events directory,
# the `info mlx5` monitor command (hw/info-mlx5.hx) and filter-impair's
# QAPI type.
qemu_link_project() {
    local q=$1 f
    [ -L "$q/hw/mlx5" ] && rm -f "$q/hw/mlx5"
    mkdir -p "$q/hw/mlx5"
    find "$q/hw/mlx5" -maxdepth 1 -type l -delete
    for f in "$MLX5EMU_ROOT"/hw/*; do
        ln -sfn "$f" "$q/hw/mlx5/$(basename "$f")"
    done
    for f in firmware-sim hw-rdma tools; do
        ln -sfn "$MLX5EMU_ROOT/$f" "$q/hw/mlx5/$f"
    done
    grep -qx "subdir('mlx5')" "$q/hw/meson.build" || echo "subdir('mlx5')" >> "$q/hw/meson.build"
    grep -qx "source mlx5/Kconfig" "$q/hw/Kconfig" || echo "source mlx5/Kconfig" >> "$q/hw/Kconfig"
    grep -q "'hw/mlx5'," "$q/meson.build" || \
        sed -i "0,/^    'hw\/net',$/s//    'hw\/mlx5',\n    'hw\/net',/" "$q/meson.build"
    grep -q "'hw/mlx5'," "$q/meson.build" || die "could not add hw/mlx5 to QEMU's trace_events_subdirs"
    grep -q '"mlx5",' "$q/hmp-commands-info.hx" ||
        cat "$MLX5EMU_ROOT/hw/info-mlx5.hx" >>"$q/hmp-commands-info.hx"
    python3 "$MLX5EMU_ROOT/tools/qapi-add-filter-impair.py" "$q/qapi/qom.json" \
        "$MLX5EMU_ROOT/hw/filter-impair.json" || die "could not add filter-impair to QEMU's QAPI schema"
}

qemu_build_dir() { echo "$MLX5EMU_CACHE/qemu-build/$(echo "$1" | md5sum | cut -c1-12)"; }

QEMU_CONFIGURE_ARGS=(
    --target-list=x86_64-softmmu
    --disable-install-blobs --disable-download
    --disable-docs --disable-werror
    --enable-virtfs --enable-trace-backends=log
    --disable-gtk --disable-sdl --disable-vnc --disable-opengl --disable-spice
    --disable-curses --disable-libusb --disable-usb-redir --disable-xen
    --disable-rbd --disable-glusterfs --disable-libiscsi --disable-libnfs
)

# qemu_build_variant SUFFIX TARGET [CONFIGURE_ARG...]: build TARGET of QEMU
# with the device in the build dir qemu_build_dir names plus SUFFIX,
# configured with QEMU_CONFIGURE_ARGS and the arguments given; echo its path.
qemu_build_variant() {
    host_setup
    local suffix=$1 target=$2 q b
    shift 2
    q=$(qemu_source)
    qemu_link_project "$q"
    b=$(qemu_build_dir "$q")$suffix
    export CCACHE_DIR=${CCACHE_DIR:-$MLX5EMU_CACHE/ccache}
    mkdir -p "$b"
    if [ ! -f "$b/build.ninja" ]; then
        log "configuring QEMU ($q) in $b"
        local args=("${QEMU_CONFIGURE_ARGS[@]}" "$@")
        (cd "$b" && "$q/configure" --python=/usr/bin/python3 "${args[@]}" >"$b/configure.log" 2>&1) \
            || { tail -30 "$b/configure.log" >&2; die "QEMU configure failed (log: $b/configure.log)"; }
    fi
    log "building QEMU's $target (ccache: $CCACHE_DIR)"
    # One build at a time per build dir (several runners may call this).
    (
        flock 9
        qemu_forget_other_checkout "$b"
        ninja -C "$b" "$target"
    ) 9>"$b/.build.lock" >"$b/build.log" 2>&1 \
        || { grep -B2 -A12 -m3 'error' "$b/build.log" >&2 || tail -40 "$b/build.log" >&2; die "QEMU build failed (log: $b/build.log)"; }
    echo "$b/$target"
}

# qemu_forget_other_checkout BUILD_DIR: every checkout that uses this cache
# (a CI clone, your tree) builds the device in the same QEMU build dir
# through hw/mlx5's links, and ninja compares times: after another
# checkout's build, a source edited here before it looks built.  So when
# the checkout changes, the device's objects and generated trace files go.
qemu_forget_other_checkout() {
    local b=$1
    [ "$(cat "$b/.mlx5emu-root" 2>/dev/null)" = "$MLX5EMU_ROOT" ] && return 0
    find "$b" \( -name '*hw_mlx5_*' -o -name 'mlx5emu-trace*' -o -name 'trace-hw_mlx5*' \) \
        -type f -delete
    # The other checkout's meson.build files may list other sources, and
    # ours can be older than the build.ninja made from theirs: mtimes do
    # not tell meson to read them again, so ask it.
    ninja -C "$b" reconfigure >/dev/null || die "QEMU reconfigure failed in $b"
    echo "$MLX5EMU_ROOT" >"$b/.mlx5emu-root"
}

# The -L options that find the firmware QEMU loads (SeaBIOS, iPXE's ROMs,
# Debian's qemu-system-data), on one line.
qemu_firmware_args() {
    local d args=()
    for d in /usr/share/seabios /usr/lib/ipxe/qemu /usr/share/qemu; do
        [ -d "$d" ] && args+=(-L "$d")
    done
    echo "${args[*]}"
}

# Build qemu-system-x86_64 with the device; echo the binary's path.
qemu_build() { qemu_build_variant "" qemu-system-x86_64; }

# QEMU's libFuzzer binary (docs/devel/testing/fuzzing.rst in QEMU's tree)
# with the device, built by clang with ASan and UBSan; echo its path.
qemu_fuzz_build() {
    qemu_build_variant -fuzz qemu-fuzz-x86_64 --cc=clang --cxx=clang++ \
        --enable-fuzzing --enable-asan --enable-ubsan
}

# --- guests -----------------------------------------------------------------

# The C programs of guest-tests/c (verbs tests, labs), built on the host
# against its libibverbs into the cache, once per version of their
# sources; echo the directory.  They run in every guest release: the
# guests' libibverbs.so.1 keeps its ABI and their glibc is no older.
guest_programs() {
    local src=$MLX5EMU_ROOT/guest-tests/c f dir
    # each program of guest-tests/c with what they share (lib/)
    dir=$MLX5EMU_CACHE/guest-bin/$( (cd "$src" && ls ./*.c lib/* && cat ./*.c lib/*) |
                                    md5sum | cut -c1-12)
    if [ ! -f "$dir/.built" ]; then
        [ -f /usr/include/infiniband/verbs.h ] || host_setup
        mkdir -p "$dir"
        for f in "$src"/*.c; do
            cc -O2 -g -std=gnu11 -Wall -Wextra -Werror -I "$src/lib" \
                -o "$dir/$(basename "$f" .c)" "$f" "$src"/lib/*.c -libverbs ||
                die "cannot build $f"
        done
        touch "$dir/.built"
    fi
    echo "$dir"
}

# Set GUEST_DIR, GUEST_ROOT, GUEST_KERNEL, GUEST_INITRD for a Debian release
# (built by scripts/build-guest).
# shellcheck disable=SC2034  # used by the callers
guest_paths() {
    GUEST_DIR=$MLX5EMU_CACHE/guest/$1
    GUEST_ROOT=$GUEST_DIR/root
    GUEST_KERNEL=$GUEST_DIR/vmlinuz
    GUEST_INITRD=$GUEST_DIR/initrd.img
}

# --- accelerator, your own rdma-core (scripts/vm) ---------------------------

# select_accel WANT (auto, kvm or tcg): echo the accelerator to use (kvm or
# tcg, or none if WANT cannot be had) and why.  KVM is usable when its
# device ($MLX5EMU_KVM_DEVICE, default /dev/kvm) opens for reading and
# writing, which is what QEMU's -accel kvm does first.
select_accel() {
    local want=$1 dev=${MLX5EMU_KVM_DEVICE:-/dev/kvm} why
    case $want in
        auto|kvm) ;;
        tcg) echo "tcg --accel tcg"; return ;;
        *) echo "none --accel must be auto, kvm or tcg"; return ;;
    esac
    if [ ! -e "$dev" ]; then why="no $dev"
    elif [ ! -c "$dev" ]; then why="$dev is not a character device"
    elif ! (exec 3<>"$dev") 2>/dev/null; then why="$dev does not open for reading and writing"
    else echo "kvm $dev opens"; return
    fi
    if [ "$want" = kvm ]; then echo "none --accel kvm: $why"; else echo "tcg $why"; fi
}

# rdma_core_build_dir PATH: echo the in-place rdma-core build directory PATH
# or PATH/build (build.sh configures with -DIN_PLACE=1: its libibverbs then
# looks for providers and their .driver files in the build directory).
rdma_core_build_dir() {
    local p=$1 b
    for b in "$p/build" "$p"; do
        [ -f "$b/lib/libibverbs.so.1" ] && [ -f "$b/CMakeCache.txt" ] || continue
        grep -Eq '^IN_PLACE:[A-Z]+=(1|ON|TRUE)$' "$b/CMakeCache.txt" || {
            printf '[mlx5emu] error: --rdma-core %s: %s was not configured with -DIN_PLACE=1 (its build.sh does that)\n' "$p" "$b" >&2
            return 1
        }
        (cd "$b" && pwd); return
    done
    printf '[mlx5emu] error: --rdma-core %s: no rdma-core build in it or its build/ (lib/libibverbs.so.1 and CMakeCache.txt): run its build.sh\n' "$p" >&2
    return 1
}

# rdma_core_mounts BUILD: the directories the guest mounts at their own
# paths for an in-place build: its source tree (the build's python/ and
# include/ link into it) and the build directory if it lies outside.
rdma_core_mounts() {
    local b=$1 src
    src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$b/CMakeCache.txt")
    if [ -n "$src" ] && [ -d "$src" ]; then
        echo "$src"
        case $b/ in "$src"/*) return ;; esac
    fi
    echo "$b"
}
