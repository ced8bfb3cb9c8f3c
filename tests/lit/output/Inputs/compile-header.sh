#!/bin/sh
# compile-header.sh FUSERC FILE OUTDIR CUDA_INCLUDE CUDA_STUBS [FUSERC OPTIONS...]
# Compiles FILE with fuserc -o OUTDIR, then compiles the header's
# implementation as C99 (-Wall -Wextra -Werror) and as C++17 (-Wall -Werror)
# and links a C host program against the CUDA driver stub; then again as C99
# with the testing hook (FUSERC_TEST_VARIANTS) and its two functions defined.
# Fails on any error.
set -eu
fuserc=$1 file=$2 out=$3 include=$4 stubs=$5
shift 5
rm -rf "$out"
"$fuserc" "$file" -o "$out" --no-cache "$@"
name=$(basename "$out"/*.h .h)
test -s "$out/$name.fatbin"
test -s "$out/$name.manifest.json"
printf '#define %s_IMPLEMENTATION\n#include "%s.h"\nint main(void) { %s_unload(); return 0; }\n' \
  "$name" "$name" "$name" > "$out/host.c"
gcc -std=c99 -Wall -Wextra -Werror -I"$out" -I"$include" -c "$out/host.c" -o "$out/host.o"
g++ -std=c++17 -Wall -Werror -I"$out" -I"$include" -x c++ -c "$out/host.c" -o "$out/hostpp.o"
gcc "$out/host.o" -o "$out/host" -L"$stubs" -lcuda -lpthread
cat > "$out/hook.c" <<EOF
#define FUSERC_TEST_VARIANTS
#define ${name}_IMPLEMENTATION
#include "$name.h"
int fuserc_test_variant(const char *kernel, int alternatives) { (void)kernel; return alternatives - 1; }
void fuserc_test_launched(const char *kernel) { (void)kernel; }
int main(void) { ${name}_unload(); return 0; }
EOF
gcc -std=c99 -Wall -Wextra -Werror -I"$out" -I"$include" -c "$out/hook.c" -o "$out/hook.o"
gcc "$out/hook.o" -o "$out/hook" -L"$stubs" -lcuda -lpthread
echo "compiled and linked $name"
