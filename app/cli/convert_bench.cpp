// `convert --bench` and `convert --bench-all` (see convert_bench.hpp).
#include "app/cli/convert_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/error.hpp"
#include "core/format/tensor_buffer.hpp"

namespace ll::cli {

namespace {

using Clock = std::chrono::steady_clock;

// Every buffer is a TensorBuffer (tensor_buffer.hpp): the conversion's and
// memcpy's see the same alignment and paging.

// Single-threaded rows are timed in thread CPU time: on a shared machine the
// process is often descheduled mid-run, which wall time would charge to
// whichever side it hit. With more threads only wall time measures the gain.
bool g_cpu_time = true;

double thread_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

template <class F>
double seconds(const F& f) {
    if (g_cpu_time) {
        const double t0 = thread_seconds();
        f();
        return thread_seconds() - t0;
    }
    const auto t0 = Clock::now();
    f();
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// How the buffers' pages were asked for, as the output says it: "on" (the
// kernel took the advice), "off" (--no-huge-pages), "small" (the buffer is
// under TensorBuffer::kHugePagesFrom), or "refused (THP never)".
std::string pages_word(const BenchOptions& o, const TensorBuffer& b) {
    if (!o.huge_pages) return "off";
    if (b.size() < TensorBuffer::kHugePagesFrom) return "small";
    if (b.huge_pages()) return "on";
    return "refused (THP " + transparent_huge_pages_mode() + ")";
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

int resolve_threads(int t) {
    return t > 0 ? t : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// Medians of interleaved runs: conversion with `threads`, optionally with 1
// thread too, and memcpy of `ref_bytes`. At least 5 runs each, more while
// under `budget` seconds in all (at most 31).
struct Timing {
    double conv = 0, conv1 = 0, copy = 0;
};
Timing time_row(const Executor& ex, const uint8_t* src, uint8_t* dst, const TensorBuffer& ca,
                TensorBuffer& cb, int threads, bool also_single, double budget) {
    ex.run(src, dst, threads);  // warm-up: page in every buffer
    if (also_single) ex.run(src, dst, 1);
    std::memcpy(cb.data(), ca.data(), ca.size());
    std::vector<double> tc, t1, tm;
    double spent = 0;
    for (int i = 0; i < 31 && (i < 5 || spent < budget); ++i) {
        const double a = seconds([&] { ex.run(src, dst, threads); });
        const double b = seconds([&] { std::memcpy(cb.data(), ca.data(), ca.size()); });
        double c = 0;
        if (also_single) c = seconds([&] { ex.run(src, dst, 1); });
        tc.push_back(a);
        tm.push_back(b);
        if (also_single) t1.push_back(c);
        spent += a + b + c;
    }
    return {median(tc), also_single ? median(t1) : 0, median(tm)};
}

// ---- the matrix ---------------------------------------------------------------

// One forward conversion family: a logical shape whose axis `grow` is scaled
// until the plain source reaches the size asked for.
struct Family {
    Format from, to;
    Shape base;
    size_t grow;
    const char* note;  // what the row stands for, "" when nothing special
};

const std::vector<Family>& families() {
    using F = Format;
    static const std::vector<Family> k = {
        {F::ND, F::FRACTAL_NZ, {16, 4096}, 0, ""},
        {F::ND, F::FRACTAL_ZZ, {16, 4096}, 0, ""},
        {F::ND, F::FRACTAL_ZN, {16, 4096}, 0, ""},
        {F::ND, F::FRACTAL_NZ, {15, 4095}, 0, "odd M,N"},
        {F::NCHW, F::NC1HWC0, {1, 64, 56, 56}, 0, ""},
        {F::NCHW, F::NC1HWC0, {1, 3, 224, 224}, 0, "C=3"},
        {F::NHWC, F::NC1HWC0, {1, 56, 56, 64}, 0, ""},
        {F::NHWC, F::NC1HWC0, {1, 224, 224, 3}, 0, "C=3"},
        {F::NHWC, F::NC1HWC0, {1, 64, 56, 56}, 0, "C=56"},
        {F::NCHW, F::FRACTAL_Z, {16, 256, 3, 3}, 0, "3x3 kernels"},
        {F::NHWC, F::FRACTAL_Z, {16, 3, 3, 256}, 0, "3x3 kernels"},
        {F::HWCN, F::FRACTAL_Z, {3, 3, 256, 16}, 3, "3x3 kernels"},
        {F::NCHW, F::FRACTAL_Z, {16, 3, 7, 7}, 0, "7x7, C=3"},
        {F::NCDHW, F::NDC1HWC0, {1, 32, 8, 28, 28}, 0, ""},
        {F::NDHWC, F::NDC1HWC0, {1, 8, 28, 28, 32}, 0, ""},
        {F::NCDHW, F::FRACTAL_Z_3D, {16, 64, 3, 3, 3}, 0, "3x3x3 kernels"},
        {F::NDHWC, F::FRACTAL_Z_3D, {16, 3, 3, 3, 64}, 0, "3x3x3 kernels"},
        {F::NCHW, F::NHWC, {1, 64, 56, 56}, 0, ""},
        {F::NCHW, F::HWCN, {1, 64, 56, 56}, 0, ""},
        {F::NHWC, F::HWCN, {1, 56, 56, 64}, 0, ""},
        {F::NCDHW, F::NDHWC, {1, 32, 8, 28, 28}, 0, ""},
        {F::FRACTAL_NZ, F::FRACTAL_ZN, {16, 4096}, 0, ""},
        {F::FRACTAL_NZ, F::FRACTAL_ZZ, {16, 4096}, 0, ""},
        {F::NC1HWC0, F::FRACTAL_Z, {16, 256, 3, 3}, 0, "3x3 kernels"},
        {F::NDC1HWC0, F::FRACTAL_Z_3D, {16, 3, 3, 3, 64}, 0, "3x3x3 kernels"},
    };
    return k;
}

struct Row {
    std::string label;  // "ND -> FRACTAL_NZ (4096,4096)"
    std::string note;
    ConvertSpec spec;
    int64_t src_bytes = 0, dst_bytes = 0;
    std::vector<double> ratio, gbps, memcpy_gbps, speedup;
};

// The family's shape with its growing axis scaled until the source holds
// min_mb. Where a padded tensor would pass the engine's 2^32 elements (C = 3
// into C0 = 32 or 64 at --bench-mb 512: 10.7x and 21x the source) the axis
// grows less, and `capped` says so.
ConvertSpec scaled(const Family& f, DType t, bool inverse, double min_mb, bool& capped) {
    ConvertSpec s;
    s.from = inverse ? f.to : f.from;
    s.to = inverse ? f.from : f.to;
    s.dtype = t;
    s.shape = f.base;
    const int64_t per = bytes_for(t, numel(f.base));
    const auto want = static_cast<int64_t>(min_mb * 1024 * 1024);
    int64_t m = std::max<int64_t>(1, (want + per - 1) / per);
    capped = false;
    for (;;) {
        s.shape[f.grow] = f.base[f.grow] * m;
        if (m == 1 || within_element_limit(s)) return s;
        m = std::min(m - 1, m * 7 / 8);
        capped = true;
    }
}

// The last-level cache of cpu0 in bytes (the largest level sysfs lists),
// or 0 when it cannot be read. Finding 50 (docs/PERFORMANCE.md): on a
// machine whose last-level cache holds a row's two tensors, --bench-all
// measures that cache, not memory, and memcpy itself may not yet stream.
int64_t last_level_cache_bytes() {
    int64_t best = 0;
    int best_level = -1;
    for (int i = 0; i < 16; ++i) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i);
        std::ifstream lv(dir + "/level"), sz(dir + "/size");
        int level = 0;
        std::string size;
        if (!(lv >> level) || !(sz >> size) || size.empty()) continue;
        int64_t v = 0;
        size_t k = 0;
        while (k < size.size() && size[k] >= '0' && size[k] <= '9') v = v * 10 + (size[k++] - '0');
        if (k < size.size() && (size[k] == 'K' || size[k] == 'k')) v <<= 10;
        if (k < size.size() && size[k] == 'M') v <<= 20;
        if (level > best_level || (level == best_level && v > best)) {
            best_level = level;
            best = v;
        }
    }
    return best;
}

bool matches(const std::string& label, const std::string& only) {
    std::stringstream ss(only);
    std::string w;
    while (std::getline(ss, w, ','))
        if (!w.empty() && label.find(w) == std::string::npos) return false;
    return true;
}

std::string fmt(const char* f, double v) {
    char b[32];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

// A row as the tables print it: its label, and its note in brackets.
std::string shown(const Row& r) {
    return r.label + (r.note.empty() ? "" : " (" + r.note + ")");
}

// The width of the tables' first column.
size_t label_width(const std::vector<Row>& rows) {
    size_t w = 10;
    for (const Row& r : rows) w = std::max(w, shown(r).size());
    return w;
}

// --list: each row's shape and what a timed run of it allocates (source,
// destination, and memcpy's two buffers of the larger), largest row last in
// the summary, so a --bench-mb can be checked against the memory at hand.
int list_rows(const std::vector<Row>& rows, bool json) {
    nlohmann::json j = nlohmann::json::array();
    int64_t most = 0;
    const size_t w = label_width(rows);
    if (!json)
        std::cout << "| conversion" << std::string(w - 10, ' ')
                  << " | src MiB | dst MiB | memory MiB |\n|" << std::string(w + 2, '-')
                  << "|--------:|--------:|-----------:|\n";
    for (const Row& r : rows) {
        const Executor ex(make_pipeline(r.spec));
        const int64_t sb = ex.src_bytes(), db = ex.dst_bytes();
        const int64_t mem = sb + db + 2 * std::max(sb, db);
        most = std::max(most, mem);
        if (json) {
            j.push_back({{"from", name(r.spec.from)},
                         {"to", name(r.spec.to)},
                         {"shape", r.spec.shape},
                         {"dtype", name(r.spec.dtype)},
                         {"note", r.note},
                         {"src_bytes", sb},
                         {"dst_bytes", db},
                         {"memory_bytes", mem}});
            continue;
        }
        const std::string lab = shown(r);
        std::cout << "| " << lab << std::string(w - lab.size(), ' ') << " | "
                  << fmt("%7.1f", static_cast<double>(sb) / 1048576.0) << " | "
                  << fmt("%7.1f", static_cast<double>(db) / 1048576.0) << " | "
                  << fmt("%10.1f", static_cast<double>(mem) / 1048576.0) << " |\n";
    }
    if (json)
        std::cout << nlohmann::json{{"rows", j}, {"most_memory_bytes", most}}.dump(2) << "\n";
    else
        std::cout << rows.size() << " rows; the largest takes "
                  << fmt("%.0f", static_cast<double>(most) / 1048576.0) << " MiB\n";
    return 0;
}

}  // namespace

int run_bench_one(const Pipeline& p, const std::vector<uint8_t>& src, const BenchOptions& o) {
    const Executor ex(p);
    const int threads = resolve_threads(o.threads);
    g_cpu_time = threads == 1;
    // the source copied into a buffer of the same kind as the others
    TensorBuffer in(src.size(), o.huge_pages),
        dst(static_cast<size_t>(ex.dst_bytes()), o.huge_pages);
    if (!src.empty()) std::memcpy(in.data(), src.data(), src.size());
    const auto ref = static_cast<size_t>(std::max(ex.src_bytes(), ex.dst_bytes()));
    TensorBuffer ca(ref, o.huge_pages), cb(ref, o.huge_pages);
    std::memset(ca.data(), 1, ca.size());
    const Timing t = time_row(ex, in.data(), dst.data(), ca, cb, threads, false, 0.5);
    const double bytes = static_cast<double>(ref);
    const double cg = bytes / t.conv / 1e9, mg = bytes / t.copy / 1e9;
    char line[200];
    std::snprintf(line, sizeof line,
                  "convert_gbps=%.3f memcpy_gbps=%.3f ratio=%.3f threads=%d huge_pages=%s", cg, mg,
                  cg / mg, threads, pages_word(o, dst).c_str());
    std::cout << line << "\n";
    return 0;
}

int run_bench_all(const BenchOptions& o) {
    if (o.repeat < 1 || o.repeat > 100)
        throw UsageError("--repeat: " + std::to_string(o.repeat) +
                         " out of range; expected 1..100");
    if (!(o.min_mb > 0 && o.min_mb <= 4096))
        throw UsageError("--bench-mb: " + fmt("%g", o.min_mb) +
                         " out of range; expected a size in MiB, 0 < MB <= 4096");
    const int threads = resolve_threads(o.threads);
    g_cpu_time = threads == 1;
    std::vector<Row> rows;
    for (const Family& f : families())
        for (DType t : all_dtypes())
            for (bool inv : {false, true}) {
                Row r;
                bool capped = false;
                r.spec = scaled(f, t, inv, o.min_mb, capped);
                r.label = std::string(name(r.spec.from)) + " -> " + name(r.spec.to) + " " +
                          to_string(r.spec.shape) + " " + name(t);
                r.note = f.note;
                if (capped) r.note += (r.note.empty() ? "" : ", ") + std::string("2^32 cap");
                if (!matches(r.label + " " + r.note, o.only)) continue;
                rows.push_back(r);
            }
    if (rows.empty()) throw UsageError("--only: '" + o.only + "' matches no row of the matrix");
    if (o.list) return list_rows(rows, o.json);

    for (int pass = 0; pass < o.repeat; ++pass) {
        for (Row& r : rows) {
            const Executor ex(make_pipeline(r.spec));
            r.src_bytes = ex.src_bytes();
            r.dst_bytes = ex.dst_bytes();
            TensorBuffer src(static_cast<size_t>(r.src_bytes), o.huge_pages),
                dst(static_cast<size_t>(r.dst_bytes), o.huge_pages);
            for (size_t i = 0; i < src.size(); ++i)
                src.data()[i] = static_cast<uint8_t>(i * 31 + 7);
            const auto ref = static_cast<size_t>(std::max(r.src_bytes, r.dst_bytes));
            TensorBuffer ca(ref, o.huge_pages), cb(ref, o.huge_pages);
            std::memset(ca.data(), 1, ca.size());
            const Timing t =
                time_row(ex, src.data(), dst.data(), ca, cb, threads, threads > 1, 0.2);
            const double bytes = static_cast<double>(ref);
            r.gbps.push_back(bytes / t.conv / 1e9);
            r.memcpy_gbps.push_back(bytes / t.copy / 1e9);
            r.ratio.push_back(t.copy / t.conv);
            if (threads > 1) r.speedup.push_back(t.conv1 / t.conv);
        }
    }

    // The smallest row's source and destination together against the
    // last-level cache (0: unknown, taken as past it).
    const int64_t llc = last_level_cache_bytes();
    int64_t smallest = INT64_MAX;
    for (const Row& r : rows) smallest = std::min(smallest, r.src_bytes + r.dst_bytes);
    const bool past = llc == 0 || smallest >= 2 * llc;
    if (o.json) {
        nlohmann::json j;
        j["threads"] = threads;
        j["repeat"] = o.repeat;
        j["min_source_mib"] = o.min_mb;
        j["last_level_cache_bytes"] = llc;
        j["smallest_row_bytes"] = smallest;
        j["past_last_level_cache"] = past;
        j["reference"] = "memcpy of max(source, destination) bytes, single thread, same run";
        j["huge_pages"] = o.huge_pages;
        j["transparent_huge_pages"] = transparent_huge_pages_mode();
        j["rows"] = nlohmann::json::array();
        for (const Row& r : rows) {
            auto mm = std::minmax_element(r.ratio.begin(), r.ratio.end());
            nlohmann::json x = {{"from", name(r.spec.from)},
                                {"to", name(r.spec.to)},
                                {"shape", r.spec.shape},
                                {"dtype", name(r.spec.dtype)},
                                {"note", r.note},
                                {"src_bytes", r.src_bytes},
                                {"dst_bytes", r.dst_bytes},
                                {"gbps", median(r.gbps)},
                                {"memcpy_gbps", median(r.memcpy_gbps)},
                                {"ratio", median(r.ratio)},
                                {"ratio_min", *mm.first},
                                {"ratio_max", *mm.second}};
            if (!r.speedup.empty()) x["speedup_vs_1_thread"] = median(r.speedup);
            j["rows"].push_back(x);
        }
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    const size_t w = label_width(rows);
    std::cout << "conversion throughput vs memcpy of max(src, dst) bytes in the same run; "
              << threads << " thread" << (threads > 1 ? "s" : "") << ", " << o.repeat
              << (o.repeat > 1 ? " passes" : " pass") << " (median, min-max of the ratio); "
              << (threads == 1 ? "thread CPU time" : "wall time") << "; buffers (all four) "
              << (o.huge_pages ? "with huge pages asked for" : "with 4 KiB pages (--no-huge-pages)")
              << ", the kernel's transparent huge pages: " << transparent_huge_pages_mode() << "\n";
    if (!past)
        std::cout << "note: this machine's last-level cache is " << (llc >> 20)
                  << " MiB; the smallest row's source and destination ("
                  << fmt("%.1f", static_cast<double>(smallest) / 1048576.0)
                  << " MiB) are not twice that, so part of each row runs from the cache and "
                     "memcpy may not stream; for memory figures use --bench-mb "
                  << std::max<int64_t>(1, llc >> 20) << " or more\n";
    std::string head = "| conversion" + std::string(w - 10, ' ') +
                       " | src MiB | dst MiB |  GB/s | memcpy GB/s | ratio | ratio min-max |";
    if (threads > 1) head += " vs 1 thread |";
    std::cout << head << "\n|" << std::string(w + 2, '-') << "|--------:|--------:|------:|"
              << "------------:|------:|--------------:|" << (threads > 1 ? "------------:|" : "")
              << "\n";
    int below = 0;
    double worst = 1e9;
    std::string worst_label;
    for (const Row& r : rows) {
        const std::string lab = shown(r);
        const double ratio = median(r.ratio);
        auto mm = std::minmax_element(r.ratio.begin(), r.ratio.end());
        std::cout << "| " << lab << std::string(w - lab.size(), ' ') << " | "
                  << fmt("%7.1f", static_cast<double>(r.src_bytes) / 1048576.0) << " | "
                  << fmt("%7.1f", static_cast<double>(r.dst_bytes) / 1048576.0) << " | "
                  << fmt("%5.1f", median(r.gbps)) << " | " << fmt("%11.1f", median(r.memcpy_gbps))
                  << " | " << fmt("%5.2f", ratio) << " | " << fmt("%6.2f", *mm.first) << " - "
                  << fmt("%4.2f", *mm.second) << " |";
        if (threads > 1) std::cout << fmt("%11.2f", median(r.speedup)) << "x |";
        std::cout << "\n";
        below += ratio < 0.7;
        if (ratio < worst) {
            worst = ratio;
            worst_label = lab;
        }
    }
    std::cout << rows.size() << " rows, " << below << " below 0.70 of memcpy; lowest "
              << fmt("%.2f", worst) << " (" << worst_label << ")\n";
    return 0;
}

}  // namespace ll::cli
