// `layoutlab convert`: one format conversion, step by step.
//
//   layoutlab convert --from ND --to FRACTAL_NZ --shape 2,2,28 --dtype fp16
//
// Text: the pipeline with the shape after each step and its caption, the
// fractal sizes, and (small tensors) the source and result printed the way
// the documents print NumPy arrays. --json: the same as data plus src_of_dst.
// --input/--output convert real .npy data (--threads N splits the work);
// --bench / --bench-all time the Executor against memcpy (convert_bench.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "app/cli/command.hpp"
#include "app/cli/convert_bench.hpp"
#include "app/cli/limits.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/format/chain.hpp"
#include "core/format/format.hpp"
#include "core/format/format_plan.hpp"
#include "core/format/narrate.hpp"
#include "core/format/tensor_buffer.hpp"
#include "core/io/npy.hpp"
#include "core/plan_text.hpp"

namespace ll::cli {

namespace {

struct ConvertArgs {
    std::string from, to, via, shape, dtype, fractal, src_fractal, input, output;
    int64_t c0 = 0, heads = 0, groups = 0;
    double pad_value = 0;
    int64_t max_bytes = kDefaultMaxBytes;
    bool json = false, bench = false, bench_all = false, stages = false;
    bool c0_given = false;
    int64_t follow = -1;  // --follow K (with --stages): narrate source element K
    bool follow_given = false;
    bool no_huge_pages = false;
    BenchOptions bo;  // --threads, and --bench-all's --repeat, --bench-mb, --only
};

// Elements up to which the text output prints the tensors.
constexpr int64_t kPrintLimit = 4096;

template <class F>
auto with_flag(const std::string& flag, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const UsageError& e) {
        const std::string m = e.what();
        if (m.rfind(flag, 0) == 0) throw;
        throw UsageError(flag + ": " + m);
    }
}

void parse_fractal(const std::string& text, int64_t& rows, int64_t& cols,
                   const std::string& flag = "--fractal") {
    const size_t x = text.find_first_of("xX");
    auto bad = [&] {
        return UsageError(flag + ": '" + text + "' is not ROWSxCOLS; expected e.g. 16x16");
    };
    if (x == std::string::npos) throw bad();
    std::vector<int64_t> v;
    for (const std::string& part : {text.substr(0, x), text.substr(x + 1)}) {
        if (part.empty() || part.size() > 6 ||
            part.find_first_not_of("0123456789") != std::string::npos)
            throw bad();
        v.push_back(std::stoll(part));
    }
    if (v[0] <= 0 || v[1] <= 0) throw bad();
    rows = v[0];
    cols = v[1];
}

// NumPy-like text of one value: whole floats as "3.", others "%g"; ints "%lld".
std::string value_text(DType t, double v) {
    char buf[64];
    if (!is_float(t)) {
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    } else if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
        std::snprintf(buf, sizeof buf, "%.0f.", v);
    } else {
        std::snprintf(buf, sizeof buf, "%g", v);
    }
    return buf;
}

// Prints like NumPy (values right-aligned to one width, nested brackets, one
// row per line) with runs of spaces collapsed to one, as the documents show it.
std::string numpy_text(DType t, const Shape& shape, const std::vector<double>& vals) {
    std::vector<std::string> cells(vals.size());
    size_t w = 0;
    for (size_t i = 0; i < vals.size(); ++i) {
        cells[i] = value_text(t, vals[i]);
        w = std::max(w, cells[i].size());
    }
    std::string out;
    const Shape st = row_major_strides(shape);
    // Recursive over axes; rows of the last axis on their own lines.
    std::function<void(size_t, int64_t)> rec = [&](size_t ax, int64_t base) {
        out += '[';
        for (int64_t i = 0; i < shape[ax]; ++i) {
            if (ax + 1 == shape.size()) {
                if (i) out += ' ';
                const std::string& c = cells[static_cast<size_t>(base + i)];
                out += std::string(w - c.size(), ' ') + c;
            } else {
                if (i) out += '\n';
                rec(ax + 1, base + i * st[ax]);
            }
        }
        out += ']';
    };
    if (shape.empty()) return cells.empty() ? "" : cells[0];
    rec(0, 0);
    std::string col;
    for (char c : out)
        if (!(c == ' ' && !col.empty() && col.back() == ' ')) col += c;
    return col;
}

std::vector<double> load_all(DType t, const std::vector<uint8_t>& buf, int64_t n) {
    std::vector<double> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = load_element(t, buf.data(), i);
    return v;
}

// The documents' example source: 0, 1, 2, ... in the dtype (wrapping for
// small integer types), with the padding slots of a fractal source at the
// pad value.
std::vector<uint8_t> demo_source(const Pipeline& p) {
    const int64_t n = numel(p.src_shape);
    std::vector<uint8_t> b(static_cast<size_t>(bytes_for(p.dtype, n)), 0);
    if (!is_plain(p.from)) {
        // A fractal source holds the logical tensor 0,1,2,... at its real
        // slots: build it with the forward conversion from the plain side.
        ConvertSpec f;
        f.from = is_plain(p.to) ? p.to : plain_family(p.from);
        f.to = p.from;
        f.shape = p.logical_shape;
        f.dtype = p.dtype;
        f.c0 = p.c0;
        if (!p.fractals.empty() && p.fractals.front().rows > 0) {
            f.fractal_rows = p.fractals.front().rows;
            f.fractal_cols = p.fractals.front().cols;
        }
        f.pad_value = p.pad_value;
        // The plain 0,1,2,... through the executor: no element map (8 bytes
        // a slot), and padding at the pad value.
        const Executor ex(make_pipeline(f));
        if (ex.dst_bytes() != static_cast<int64_t>(b.size()))
            throw std::logic_error("demo_source: the forward conversion's size differs");
        std::vector<uint8_t> plain(static_cast<size_t>(ex.src_bytes()), 0);
        const int64_t np = numel(ex.pipeline().src_shape);
        for (int64_t i = 0; i < np; ++i)
            store_element(p.dtype, plain.data(), i, static_cast<double>(i));
        ex.run(plain.data(), b.data(), 0);
        return b;
    }
    for (int64_t i = 0; i < n; ++i) store_element(p.dtype, b.data(), i, static_cast<double>(i));
    return b;
}

std::string fractal_text(const Pipeline& p) {
    std::string r;
    for (const auto& f : p.fractals) {
        if (!r.empty()) r += "; ";
        r += std::string(name(f.format)) + ": ";
        if (f.rows > 0) {
            r += f.row_name + "=" + std::to_string(f.rows) + " x " + f.col_name + "=" +
                 std::to_string(f.cols);
            r += " (" + std::to_string(bytes_for(p.dtype, f.rows * f.cols)) + " bytes)";
        } else {
            r += f.col_name + "=" + std::to_string(f.cols);
        }
    }
    if (p.c0 > 0 && r.find("C0=") == std::string::npos) r += "; C0=" + std::to_string(p.c0);
    return r.empty() ? "none (plain formats)" : r;
}

std::string params_text(const Step& s) {
    auto list = [](const std::vector<int64_t>& v) {
        std::string r = "[";
        for (size_t i = 0; i < v.size(); ++i) r += (i ? "," : "") + std::to_string(v[i]);
        return r + "]";
    };
    if (s.kind == StepKind::pad) return "append " + list(s.amounts);
    if (s.kind == StepKind::crop) return "remove " + list(s.amounts);
    if (s.kind == StepKind::transpose) return "perm " + list(s.perm);
    return "";
}

void print_text(const Pipeline& p, const std::vector<uint8_t>* src, const std::vector<uint8_t>* dst,
                const std::string& output) {
    std::cout << "convert " << name(p.from) << " -> " << name(p.to) << ", " << name(p.dtype)
              << ", shape " << to_string(p.logical_shape) << "\n";
    std::cout << "fractal: " << fractal_text(p) << "\n";
    std::cout << "pipeline: " << to_string(p) << "\n";
    std::cout << "steps:\n";
    if (p.steps.empty()) std::cout << "  (none: the data stays as it is)\n";
    for (size_t i = 0; i < p.steps.size(); ++i) {
        const Step& s = p.steps[i];
        std::cout << "  " << i + 1 << ". " << s.label() << ": " << to_string(s.before) << " -> "
                  << to_string(s.after);
        const std::string par = params_text(s);
        if (!par.empty() && s.kind != StepKind::transpose) std::cout << ", " << par;
        std::cout << "\n     " << s.caption << "\n";
    }
    const int64_t ns = numel(p.src_shape), nd = numel(p.dst_shape);
    const int64_t real = data_elements(p);
    std::cout << "destination: " << to_string(p.dst_shape) << ", " << nd << " elements (" << real
              << " data, " << nd - real << " padding), " << bytes_for(p.dtype, nd) << " bytes\n";
    if (src && dst && nd <= kPrintLimit && ns <= kPrintLimit) {
        std::cout << "source:\n"
                  << numpy_text(p.dtype, p.src_shape, load_all(p.dtype, *src, ns)) << "\n";
        std::cout << "result:\n"
                  << numpy_text(p.dtype, p.dst_shape, load_all(p.dtype, *dst, nd)) << "\n";
    } else if (nd > kPrintLimit) {
        std::cout << "(tensor not printed: more than " << kPrintLimit << " elements)\n";
    }
    if (!output.empty()) std::cout << "wrote " << output << "\n";
}

void print_json(const Pipeline& p, const std::string& output) {
    nlohmann::json j;
    j["from"] = name(p.from);
    j["to"] = name(p.to);
    j["dtype"] = name(p.dtype);
    j["shape"] = p.logical_shape;
    j["src_shape"] = p.src_shape;
    j["dst_shape"] = p.dst_shape;
    j["pipeline"] = to_string(p);
    j["pad_value"] = p.pad_value;
    j["c0"] = p.c0;
    j["fractal"] = nlohmann::json::array();
    for (const auto& f : p.fractals) {
        nlohmann::json fj = {{"format", name(f.format)},
                             {"rows", f.rows},
                             {"cols", f.cols},
                             {"row_name", f.row_name},
                             {"col_name", f.col_name}};
        if (f.rows > 0) fj[f.row_name] = f.rows;
        fj[f.col_name] = f.cols;
        j["fractal"].push_back(fj);
    }
    j["steps"] = nlohmann::json::array();
    for (const auto& s : p.steps) {
        nlohmann::json sj = {{"kind", name(s.kind)},         {"label", s.label()},
                             {"before", s.before},           {"after", s.after},
                             {"axes_before", s.axes_before}, {"axes_after", s.axes_after},
                             {"caption", s.caption}};
        if (s.kind == StepKind::transpose) sj["perm"] = s.perm;
        if (s.kind == StepKind::pad || s.kind == StepKind::crop) sj["amounts"] = s.amounts;
        j["steps"].push_back(sj);
    }
    if (!output.empty()) j["output"] = output;
    std::string text = j.dump(2);
    // src_of_dst can be millions of entries: stream it instead of building
    // a JSON value per element.
    text.erase(text.find_last_of('}'));
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    std::cout << text << ",\n  \"src_of_dst\": [";
    const ElementMap m = element_map(p);
    std::string buf;
    buf.reserve(1 << 16);
    for (size_t i = 0; i < m.size(); ++i) {
        if (i) buf += ',';
        buf += std::to_string(m[i]);
        if (buf.size() > (1 << 15)) {
            std::cout << buf;
            buf.clear();
        }
    }
    std::cout << buf << "]\n}\n";
}

// Cells up to which --stages lists every cell's offset per stage, and above
// which it refuses (the picture's own limit in the window).
constexpr int64_t kStageOffsetsLimit = int64_t(1) << 16;
constexpr int64_t kStageCellsLimit = int64_t(1) << 25;

// --stages --follow K: the explorer's narration of a pinned element, the
// same words the window shows under its trail (core/format/narrate.hpp).
int print_follow(const Plan& plan, const ConvertArgs& a) {
    const int64_t n = numel(plan.src_shape);
    const int64_t cell = cell_of_source(plan, a.follow);
    if (cell < 0)
        throw UsageError("--follow: " + std::to_string(a.follow) +
                         " is not a source element; expected 0.." + std::to_string(n - 1));
    if (a.json) {
        nlohmann::json j = {{"element", a.follow},
                            {"cell", cell},
                            {"narration", narration(plan, cell)},
                            {"stages", nlohmann::json::array()}};
        for (size_t k = 0; k < plan.stages.size(); ++k)
            j["stages"].push_back({{"stage", k},
                                   {"label", plan.stages[k].label},
                                   {"offset", offset_at_stage(plan, k, cell)},
                                   {"where", where_at(plan, k, cell)},
                                   {"step", narrate_step(plan, k, cell)}});
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::cout << plan.title << ", source element " << a.follow << " (cell " << cell << ")\n";
    for (size_t k = 0; k < plan.stages.size(); ++k)
        std::cout << "  " << k << " " << narrate_step(plan, k, cell) << "\n";
    std::cout << narration(plan, cell) << "\n";
    return 0;
}

// --stages: the explorer's picture as data (core/plan_text.hpp), one entry
// per stage with its label, formula, shape, axis names and cell offsets.
int print_stages(const ConvertSpec& spec, const ConvertArgs& a) {
    if (!a.input.empty() || !a.output.empty() || a.bench)
        throw UsageError(
            "--stages: prints the stages of the picture; expected it without "
            "--input, --output and --bench");
    std::optional<Format> via;
    if (!a.via.empty()) via = with_flag("--via", [&] { return format_from_name(a.via); });
    const std::vector<Pipeline> chain = conversion_chain(spec, via);
    const int64_t cells = numel(chain.back().dst_shape);
    if (cells > kStageCellsLimit)
        throw UsageError("--shape: " + std::to_string(cells) +
                         " cells after conversion; --stages draws at most " +
                         std::to_string(kStageCellsLimit) + " (the window's limit)");
    const Plan plan = format_plan(chain);
    if (a.follow_given) return print_follow(plan, a);
    if (a.json)
        std::cout << plan_json(plan, kStageOffsetsLimit).dump(2) << "\n";
    else
        std::cout << plan_text(plan, 256);
    return 0;
}

int run_convert(ConvertArgs a) {
    if (a.bo.threads < 0)
        throw UsageError("--threads: " + std::to_string(a.bo.threads) +
                         " is negative; expected a thread count, 0 for all cores");
    a.bo.json = a.json;
    a.bo.huge_pages = !a.no_huge_pages;
    if (a.bench_all) return run_bench_all(a.bo);
    if (a.from.empty()) throw UsageError("--from: missing; expected one of " + format_names());
    if (a.to.empty()) throw UsageError("--to: missing; expected one of " + format_names());
    ConvertSpec spec;
    spec.from = with_flag("--from", [&] { return format_from_name(a.from); });
    spec.to = with_flag("--to", [&] { return format_from_name(a.to); });
    spec.c0 = a.c0;
    if (a.c0_given && a.c0 <= 0)
        throw UsageError("--c0: " + std::to_string(a.c0) + " must be positive; expected e.g. 16");
    spec.pad_value = a.pad_value;
    if (!a.fractal.empty()) parse_fractal(a.fractal, spec.fractal_rows, spec.fractal_cols);
    if (!a.src_fractal.empty())
        parse_fractal(a.src_fractal, spec.src_fractal_rows, spec.src_fractal_cols, "--src-fractal");
    if (a.heads < 0 || a.groups < 0)
        throw UsageError("--heads/--groups: must be positive; expected e.g. --heads 4 --groups 1");
    spec.heads = a.heads;
    spec.groups = a.groups;
    if (!a.output.empty() && !a.bench && a.output == a.input)
        throw UsageError("--output: same path as --input; expected a different file");

    NpyArray in;
    const bool have_input = !a.input.empty();
    if (have_input) in = with_flag("--input", [&] { return read_npy(a.input, a.max_bytes); });
    if (!a.dtype.empty())
        spec.dtype = with_flag("--dtype", [&] { return dtype_from_name(a.dtype); });
    else if (have_input)
        spec.dtype = in.dtype;
    else
        throw UsageError("--dtype: missing; expected one of " + dtype_names());
    if ((have_input || !a.output.empty()) &&
        (spec.dtype == DType::int4 || spec.dtype == DType::bf16 || spec.dtype == DType::uint16 ||
         spec.dtype == DType::uint32 || is_storage_only(spec.dtype)))
        throw UsageError(std::string("--dtype: ") + name(spec.dtype) +
                         " has no NumPy dtype here, so it cannot be read or written as .npy; "
                         "expected int8, uint8, int16, fp16, fp32 or int32 with --input/--output");
    if (have_input && in.dtype != spec.dtype)
        throw UsageError("--input: " + a.input + " holds " + name(in.dtype) + " but --dtype is " +
                         name(spec.dtype) + "; expected the same dtype");

    if (!a.shape.empty()) {
        spec.shape = parse_shape(a.shape, "--shape");
    } else if (have_input && is_plain(spec.from)) {
        spec.shape = in.shape;
    } else if (have_input) {
        throw UsageError(std::string("--shape: missing; a ") + name(spec.from) +
                         " input needs the logical shape of its plain side to drop the padding");
    } else {
        throw UsageError("--shape: missing; expected comma-separated dims such as 2,2,28");
    }
    if (a.follow_given && !a.stages)
        throw UsageError(
            "--follow: narrates one element of the picture; expected it with --stages");
    if (a.stages) return print_stages(spec, a);
    if (!a.via.empty())
        throw UsageError(
            "--via: shows a chain of conversions as a picture; expected it with "
            "--stages");
    const Pipeline p = make_pipeline(spec);
    if (have_input && in.shape != p.src_shape)
        throw UsageError("--input: " + a.input + " has shape " + to_string(in.shape) + " but " +
                         (is_plain(spec.from)
                              ? "--shape is "
                              : "the " + std::string(name(p.from)) + " layout of --shape is ") +
                         to_string(p.src_shape) + "; expected the same shape");

    const int64_t ns = numel(p.src_shape), nd = numel(p.dst_shape);
    std::vector<uint8_t> src;
    const bool need_data = have_input || !a.output.empty() || a.bench ||
                           (!a.json && ns <= kPrintLimit && nd <= kPrintLimit);
    {
        // Memory before any is allocated: with --json the element map (8
        // bytes per destination element, src_of_dst); with data the source
        // and destination buffers and the executor's intermediates. The text
        // summary counts padding without the map (data_elements).
        const double eb = double(bits(p.dtype)) / 8;
        // (A fractal source made up here is built from a plain one: ns more.)
        const double made_up = have_input || is_plain(p.from) ? 0.0 : eb * double(ns);
        const double data_bytes =
            eb * double(ns + nd) + made_up + double(Executor(p).scratch_bytes());
        const double need = (a.json ? 8.0 * double(nd) : 0.0) + (need_data ? data_bytes : 0.0);
        check_work(need, a.max_bytes,
                   "convert " + to_string(p.src_shape) + " -> " + to_string(p.dst_shape),
                   "bytes of memory", "--max-bytes");
    }
    if (need_data) src = have_input ? std::move(in.data) : demo_source(p);
    if (a.bench) return run_bench_one(p, src, a.bo);

    // The output on a 64-byte boundary: the executor's widened scatters
    // (FRACTAL_NZ -> ND, C0 rows into NHWC) stream whole lines only there
    // (docs/PERFORMANCE.md, finding 13); huge pages where it is large
    // (tensor_buffer.hpp, finding 52).
    TensorBuffer raw;
    uint8_t* out = nullptr;
    size_t out_bytes = 0;
    if (need_data) {
        const Executor ex(p);
        out_bytes = static_cast<size_t>(ex.dst_bytes());
        raw = TensorBuffer(out_bytes, a.bo.huge_pages);
        out = raw.data();
        ex.run(src.data(), out, a.bo.threads);
    }
    if (!a.output.empty()) write_npy(a.output, p.dtype, p.dst_shape, out, out_bytes);
    if (a.json) {
        print_json(p, a.output);
        return 0;
    }
    std::vector<uint8_t> dst;  // printed only when small (kPrintLimit)
    if (need_data && numel(p.dst_shape) <= kPrintLimit) dst.assign(out, out + out_bytes);
    print_text(p, need_data ? &src : nullptr, need_data ? &dst : nullptr, a.output);
    return 0;
}

}  // namespace

Runner setup_convert(CLI::App& sub) {
    auto a = std::make_shared<ConvertArgs>();
    sub.add_option("--from", a->from, "source format: " + format_names() + "; required");
    sub.add_option("--to", a->to,
                   "destination format (FRACTAL_NZ, NC1HWC0, FRACTAL_Z, ...); required");
    sub.add_option("--shape", a->shape,
                   "LOGICAL shape in the plain format's axis order, e.g. 2,2,28 (ND: ..., M, N); "
                   "Matmul formats: the 5-D side's (B,S,N,G,D / S,B,N,G,D / B,N,G,S1,S2) when one "
                   "is involved, else the source's; may be omitted with a plain --input");
    sub.add_option("--dtype", a->dtype, dtype_names());
    CLI::Option* c0 = sub.add_option(
        "--c0", a->c0, "C0 (and the 32-byte side K0/N0 of matrix fractals); default 32 B / sizeof");
    sub.add_option("--fractal", a->fractal, "fractal ROWSxCOLS override, e.g. 16x16 (NZ in L0C)");
    sub.add_option("--src-fractal", a->src_fractal,
                   "the source's own fractal when it differs, e.g. --from NZ --to NZ --dtype fp32 "
                   "--src-fractal 16x16 --fractal 16x8 (L0C -> L1)");
    sub.add_option("--heads", a->heads, "N, heads: BSH -> BSNGD (SBH -> SBNGD) splits H = N*G*D");
    sub.add_option("--groups", a->groups, "G, groups per head with --heads (default 1)");
    sub.add_option("--pad-value", a->pad_value, "value written into padding (default 0)");
    sub.add_flag("--json", a->json, "print JSON (steps, shapes, fractal sizes, src_of_dst)");
    sub.add_option("--input", a->input, "convert this .npy file (its shape/dtype must match)");
    sub.add_option("--output", a->output, "write the converted tensor as .npy");
    sub.add_option("--via", a->via,
                   "with --stages: a plain format the data passes through first, e.g. NHWC");
    sub.add_flag("--stages", a->stages,
                 "print the picture's stages: label, formula, shape, axis names and, up to 65536 "
                 "cells, every cell's offset (--json: stages[{label, formula, shape, offsets}])");
    CLI::Option* follow =
        sub.add_option("--follow", a->follow,
                       "with --stages: say in words where source element K sits at every stage "
                       "(the explorer's narration; --json: stages[{offset, where, step}])");
    add_max_bytes(sub, a->max_bytes, "the tensors (and with --json the element map)");
    sub.add_flag("--bench", a->bench,
                 "time the conversion against memcpy of max(source, destination) bytes; prints "
                 "one line");
    sub.add_flag("--bench-all", a->bench_all,
                 "time every format pair x every dtype, forward and inverse, against memcpy; "
                 "prints one table (no --from/--to needed)");
    sub.add_option("--threads", a->bo.threads,
                   "threads for the conversion (default 0: all cores); --bench-all with more than "
                   "one also times 1 thread and prints the speed-up");
    sub.add_option("--repeat", a->bo.repeat,
                   "--bench-all: passes over the matrix; the table shows medians and min-max "
                   "(default 3)");
    sub.add_option("--bench-mb", a->bo.min_mb,
                   "--bench-all: smallest source in MiB (default 64); a note says when the "
                   "last-level cache is larger than half a row's two tensors");
    sub.add_flag("--list", a->bo.list,
                 "--bench-all: print the rows, their shapes and the memory each takes (the "
                 "conversion's buffers and memcpy's), without timing them");
    sub.add_flag("--no-huge-pages", a->no_huge_pages,
                 "4 KiB pages for the output and --bench's buffers (default: huge pages asked "
                 "for on buffers of 4 MiB or more, as NumPy does)");
    sub.add_option("--only", a->bo.only,
                   "--bench-all: only rows whose text holds every comma-separated word, e.g. "
                   "'NC1HWC0,fp16'");
    return [a, c0, follow]() {
        a->c0_given = c0->count() > 0;
        a->follow_given = follow->count() > 0;
        return run_convert(*a);
    };
}

}  // namespace ll::cli
