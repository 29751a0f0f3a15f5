#!/usr/bin/env bash
# Builds the dedup delta-decoder fuzz target with libFuzzer + AddressSanitizer (clang) and
# runs it. Usage: buildscripts/fuzz_delta.sh [seconds=180] [extra libFuzzer flags...]
# Output and the corpus go to build/fuzz/ (the corpus is seeded with valid deltas first).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECS="${1:-180}"; shift || true
OUT="$REPO/build/fuzz"
mkdir -p "$OUT/corpus" "$OUT/obj"
CXX="${CXX_FUZZ:-clang++}"
probe='extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }'
if ! echo "$probe" | "$CXX" -x c++ -fsanitize=fuzzer,address - -o /dev/null 2>/dev/null; then
  echo "fuzz_delta.sh: $CXX cannot link -fsanitize=fuzzer,address;" \
       "on Debian install clang and libclang-rt-14-dev" >&2
  exit 1
fi
FLAGS=(-std=c++17 -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
       -I"$REPO/src")
D="$REPO/src/mongo/db/dedup"
SRCS=("$REPO/src/mongo/base/error_codes.cpp" "$D/crc32c.cpp" "$D/delta_format.cpp"
      "$D/delta_encoder.cpp" "$D/gear_chunker.cpp" "$D/stored_form.cpp")
objs=()
for s in "${SRCS[@]}"; do
  o="$OUT/obj/$(basename "${s%.cpp}").o"
  if [ ! -f "$o" ] || [ "$s" -nt "$o" ]; then nice -n 10 "$CXX" "${FLAGS[@]}" -c "$s" -o "$o"; fi
  objs+=("$o")
done
nice -n 10 "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "$D/delta_decode_fuzzer.cpp" "${objs[@]}" \
  -lzstd -o "$OUT/delta_decode_fuzzer"

# Seed corpus: valid deltas between small related texts, in the target's input layout.
if [ -z "$(ls -A "$OUT/corpus")" ]; then
  cat > "$OUT/seed.cpp" <<'CPP'
#include <cstdio>
#include <string>
#include "mongo/db/dedup/delta_encoder.h"
using namespace mongo::dedup;
int main(int argc, char** argv) {
  const char* dir = argv[1];
  for (int i = 0; i < 32; ++i) {
    std::string src, tgt;
    for (int k = 0; k < 3 + i % 5; ++k) src += "record text " + std::to_string(k * i) + "\n";
    src.resize(std::min<size_t>(src.size(), 120));
    tgt = src; tgt.insert(tgt.size() / 2, "edit" + std::to_string(i));
    if (i % 4 == 3)  // enough new text for a compressed (0xD2) body
      for (int k = 0; k < 20; ++k) tgt += "fresh words " + std::to_string(k % 3) + " ";
    DeltaEncoder enc;
    std::string d = enc.encode((const uint8_t*)src.data(), src.size(), (const uint8_t*)tgt.data(), tgt.size());
    std::string in(1, char(src.size() | (i % 2 ? 0x80 : 0)));
    in += src; in += d;
    std::string path = std::string(dir) + "/seed" + std::to_string(i);
    FILE* f = fopen(path.c_str(), "wb"); fwrite(in.data(), 1, in.size(), f); fclose(f);
  }
}
CPP
  nice -n 10 "$CXX" -std=c++17 -O1 -I"$REPO/src" "$OUT/seed.cpp" "$D/delta_encoder.cpp" \
    "$D/delta_format.cpp" "$D/crc32c.cpp" "$D/gear_chunker.cpp" "$REPO/src/mongo/base/error_codes.cpp" \
    -lzstd -o "$OUT/seed" && "$OUT/seed" "$OUT/corpus"
fi

cd "$OUT"
nice -n 10 ./delta_decode_fuzzer -max_total_time="$SECS" -max_len=4096 -rss_limit_mb=2048 \
  -print_final_stats=1 "$@" corpus 2>&1 | tee fuzz.log | tail -25
