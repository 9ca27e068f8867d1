#!/usr/bin/env bash
# Builds the libFuzzer targets of Tests/Fuzz/Targets into $FUZZ_DIR/bin (default .build/fuzz).
#
# Why swiftc and not SwiftPM: every target needs `-sanitize=fuzzer,address`, which must not
# leak into the normal build, and Package.swift stays untouched (no extra targets, nothing
# gated on the environment). Each module the targets need is compiled once, whole-module, into
# one object and a .swiftmodule (with -enable-testing, so targets can reach internal decoders
# such as BridgeConfiguration.decode); each target is then one file linked against them.
# A module is rebuilt only when one of its sources, or a module below it, is newer than its object.
#
# Usage: Tests/Fuzz/build.sh [target…]   (no argument: every target)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${FUZZ_DIR:-$root/.build/fuzz}
obj=$out/obj
bin=$out/bin
mkdir -p "$obj" "$bin"

# -O: libFuzzer's speed is the point; the sanitizers still check every access. lld: gold warns
# about every ASan helper symbol.
flags=(-O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -use-ld=lld
    -enable-upcoming-feature ExistentialAny -I "$obj" -I "$root/Sources/COpenSSL")

# Module → every module below it, not only its direct imports (`modules` is a valid build order).
modules=(Support Wire TVModel Net Clients Drivers MQTTInterface HomeAssistant Configuration Persistence Bridge
    ConfigurationLoading)
declare -A deps=(
    [Support]="" [Wire]="" [TVModel]="Support" [Net]="Support"
    [Clients]="Wire Net Support" [Drivers]="Clients Net TVModel Wire Support"
    [MQTTInterface]="TVModel Wire Support"
    [HomeAssistant]="MQTTInterface TVModel Wire Support"
    [Configuration]="Drivers MQTTInterface HomeAssistant Clients TVModel Wire Support Net"
    [Persistence]="Net TVModel Wire Support"
    [Bridge]="Configuration Persistence Drivers MQTTInterface HomeAssistant Clients TVModel Wire Support Net"
    [ConfigurationLoading]="Configuration Drivers MQTTInterface HomeAssistant Clients TVModel Wire Support Net"
)

# Target → the deepest module it imports (linking pulls in that module's closure).
declare -A needs=(
    [mqtt]=Wire [http-response]=Wire [http-request]=Wire [websocket]=Wire [ssdp]=Wire
    [xml]=Wire [json]=Wire [websocket-session]=Clients [roku-ecp]=Drivers [samsung]=Drivers [samsung-art]=Drivers
    [ecp2]=Drivers [gena]=Drivers [samsung-legacy]=Wire [command]=Bridge [add-tv]=Bridge
    [config]=ConfigurationLoading [app-icon]=TVModel [lg]=Drivers [dns]=Wire [protobuf]=Wire
)

stale() { # output input…: is output missing, or older than any input (files or directories)?
    local output=$1
    shift
    [[ ! -e $output ]] || [[ -n $(find "$@" -type f -newer "$output" | head -1) ]]
}

# CSystem (C shims used by Net): instrumented too, and given the module map SwiftPM would generate.
if stale "$obj/CSystem.o" Sources/CSystem; then
    clang -O1 -fsanitize=fuzzer-no-link,address -I Sources/CSystem/include -c Sources/CSystem/CSystem.c \
        -o "$obj/CSystem.o"
    printf 'module CSystem {\n    header "%s"\n    export *\n}\n' \
        "$root/Sources/CSystem/include/CSystem.h" >"$obj/module.modulemap"
fi

closure() { # module → it and every module it imports (the lists above are complete), in build order
    local wanted=" $1 ${deps[$1]} " result=()
    for m in "${modules[@]}"; do [[ $wanted == *" $m "* ]] && result+=("$m"); done
    echo "${result[@]}"
}

build_module() { # rebuilt when its sources or a module it imports changed
    local m=$1 inputs=(Sources/"$1")
    for dep in ${deps[$m]}; do inputs+=("$obj/$dep.o"); done
    [[ " ${deps[$m]} " == *" Net "* || $m == Net ]] && inputs+=("$obj/CSystem.o")
    stale "$obj/$m.o" "${inputs[@]}" || return 0
    echo "fuzz: compiling $m" >&2
    swiftc "${flags[@]}" -enable-testing -wmo -module-name "$m" -emit-module \
        -emit-module-path "$obj/$m.swiftmodule" -c $(find Sources/"$m" -name '*.swift' | sort) -o "$obj/$m.o"
    # swiftc leaves an output untouched when its bytes did not change; the timestamp is our stamp.
    touch "$obj/$m.o"
}

targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=($(ls Tests/Fuzz/Targets | sed 's/\.swift$//'))
for target in "${targets[@]}"; do
    [[ -n ${needs[$target]:-} ]] || { echo "fuzz: unknown target $target (add it to needs in $0)" >&2; exit 2; }
    for m in $(closure "${needs[$target]}"); do build_module "$m"; done
done
for target in "${targets[@]}"; do
    mods=($(closure "${needs[$target]}"))
    objects=()
    for m in "${mods[@]}"; do objects+=("$obj/$m.o"); done
    libraries=()
    [[ " ${mods[*]} " == *" Net "* ]] && objects+=("$obj/CSystem.o") && libraries=(-lssl -lcrypto)
    exe=$bin/$target
    stale "$exe" "Tests/Fuzz/Targets/$target.swift" Tests/Fuzz/Support "${objects[@]}" || continue
    echo "fuzz: linking $target" >&2
    swiftc "${flags[@]}" -module-name "Fuzz_${target//-/_}" "Tests/Fuzz/Targets/$target.swift" \
        Tests/Fuzz/Support/*.swift "${objects[@]}" "${libraries[@]}" -o "$exe"
done
