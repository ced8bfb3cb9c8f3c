#!/bin/sh
# compile-header.sh FUSERC FILE OUTDIR CUDA_INCLUDE CUDA_STUBS [FUSERC OPTIONS...]
# Compiles FILE with fuserc -o OUTDIR, then compiles NAME.c as C99
# (-Wall -Wextra -Werror) and as C++17 (-Wall -Werror), links a C host
# program that includes only NAME.h against it and the CUDA driver stub,
# checks that the image NAME.c embeds is NAME.fatbin byte for byte, and
# builds NAME.c again with the testing hook (FUSERC_TEST_VARIANTS) and its
# two functions defined. Fails on any error.
set -eu
fuserc=$1 file=$2 out=$3 include=$4 stubs=$5
shift 5
rm -rf "$out"
"$fuserc" "$file" -o "$out" --no-cache "$@"
name=$(basename "$out"/*.h .h)
test -s "$out/$name.fatbin"
test -s "$out/$name.manifest.json"
test -s "$out/$name.c"
gcc -std=c99 -Wall -Wextra -Werror -I"$out" -I"$include" -c "$out/$name.c" -o "$out/$name.o"
g++ -std=c++17 -Wall -Werror -I"$out" -I"$include" -x c++ -c "$out/$name.c" -o "$out/${name}pp.o"
printf '#include "%s.h"\nint main(void) { %s_unload(); return 0; }\n' "$name" "$name" > "$out/host.c"
gcc -std=c99 -Wall -Wextra -Werror -I"$out" -I"$include" -c "$out/host.c" -o "$out/host.o"
gcc "$out/host.o" "$out/$name.o" -o "$out/host" -L"$stubs" -lcuda -lpthread
cat > "$out/image.c" <<EOF
#include "$name.c"
int main(void) {
  fwrite(${name}_fatbin.bytes, 1, sizeof ${name}_fatbin.bytes - 1, stdout);
  return 0;
}
EOF
gcc -std=c99 -Wall -Wextra -Werror -I"$out" -I"$include" "$out/image.c" -o "$out/image" -L"$stubs" -lcuda -lpthread
ln -sf "$stubs/libcuda.so" "$out/libcuda.so.1"
LD_LIBRARY_PATH="$out" "$out/image" > "$out/image.bin"
cmp "$out/image.bin" "$out/$name.fatbin"
cat > "$out/hook.c" <<EOF
#define FUSERC_TEST_VARIANTS
#include "$name.c"
int fuserc_test_variant(const char *kernel, int alternatives) { (void)kernel; return alternatives - 1; }
void fuserc_test_launched(const char *kernel) { (void)kernel; }
int main(void) { ${name}_unload(); return 0; }
EOF
gcc -std=c99 -Wall -Wextra -Werror -I"$out" -I"$include" -c "$out/hook.c" -o "$out/hook.o"
gcc "$out/hook.o" -o "$out/hook" -L"$stubs" -lcuda -lpthread
echo "compiled and linked $name"
