// libFuzzer target: the .npy reader (header parser and data checks).
// Any input must give an array or a UsageError; nothing else may escape.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "core/io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        ll::NpyArray a = ll::parse_npy(bytes, "fuzz.npy");
        // What was accepted must describe itself consistently.
        if (a.data.size() != size_t(ll::numel(a.shape)) * size_t(ll::bits(a.dtype) / 8))
            __builtin_trap();
        const std::string again = ll::npy_bytes(a.dtype, a.shape, a.data.data(), a.data.size());
        ll::NpyArray b = ll::parse_npy(again, "again.npy");
        if (b.shape != a.shape || b.dtype != a.dtype || b.data != a.data) __builtin_trap();
    } catch (const ll::UsageError&) {
    }
    return 0;
}
