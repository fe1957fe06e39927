#!/usr/bin/python3
"""NumPy reference for `layoutlab convert --bench`: ND -> FRACTAL_NZ as
pad + reshape + transpose + ascontiguousarray, and memcpy (ndarray.copy) on
the same bytes, medians of repeated runs. Not part of the tests.

    scripts/numpy_nz_bench.py [M N]      (default 4096 4096, fp16)

Run with Debian's interpreter (/usr/bin/python3, where python3-numpy lives;
a pyenv python3 earlier on PATH has no NumPy). Prints wall-clock figures and
thread CPU time figures (cpu_*), the latter comparable with
`layoutlab convert --bench --threads 1`, which times in thread CPU time: on a
shared machine wall time charges other processes' time to whichever run
they interrupted.
"""
import sys
import time

import numpy as np


def median_time(f, clock=time.perf_counter, runs=9):
    f()
    ts = []
    for _ in range(runs):
        t0 = clock()
        f()
        ts.append(clock() - t0)
    ts.sort()
    return ts[len(ts) // 2]


def main():
    m, n = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (4096, 4096)
    a = np.arange(m * n, dtype=np.float16).reshape(m, n)
    m0, n0 = 16, 16
    m1, n1 = (m + m0 - 1) // m0, (n + n0 - 1) // n0

    def nz():
        b = np.pad(a, [[0, m1 * m0 - m], [0, n1 * n0 - n]])
        b = b.reshape(m1, m0, n1, n0).transpose(2, 0, 1, 3)
        return np.ascontiguousarray(b)

    t_np = median_time(nz)
    t_cp = median_time(lambda: a.copy())
    c_np = median_time(nz, time.thread_time)
    c_cp = median_time(lambda: a.copy(), time.thread_time)
    gb = a.nbytes / 1e9
    print(f"numpy_gbps={gb / t_np:.3f} copy_gbps={gb / t_cp:.3f} ratio={t_cp / t_np:.3f} "
          f"cpu_numpy_gbps={gb / c_np:.3f} cpu_copy_gbps={gb / c_cp:.3f} "
          f"cpu_ratio={c_cp / c_np:.3f}")


if __name__ == "__main__":
    main()
