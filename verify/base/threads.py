"""The BLAS libraries' thread counts, in a module that does not load NumPy, so that a command can
set them before NumPy loads: OpenBLAS reads them once, when it loads."""

from __future__ import annotations

import ctypes
import glob
import os

#: Thread counts of the BLAS/OpenMP libraries NumPy may use.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread_unless_chosen() -> None:
    """One BLAS thread per process where the user has not chosen: a pool of processes already
    uses every core, and on the 2-core machine two processes with OpenBLAS's default threads ran
    a figure's runs 2.5x slower (8.2 vs 3.3 us per sample, measured side by side)."""
    for name in BLAS_THREAD_VARIABLES:
        os.environ.setdefault(name, "1")


#: The OpenBLAS kernel the simulating commands pin where the processor runs it (AVX2 and FMA).
#: OpenBLAS picks its kernel by processor at load time, and kernels sum in different orders: the
#: quick region study's plateau correlations were 0.322 under SkylakeX (an AVX-512 Intel machine)
#: and 0.339 under Haswell (an AVX-512 AMD machine), because SGD at large steps amplifies the last
#: bits. Haswell is the kernel OpenBLAS itself picks for AMD Zen and for Intel without AVX-512.
PINNED_BLAS_KERNEL = "Haswell"


def one_blas_kernel_unless_chosen(cpuinfo: str = "/proc/cpuinfo") -> None:
    """Pin OpenBLAS to :data:`PINNED_BLAS_KERNEL` before NumPy loads, unless OPENBLAS_CORETYPE is
    set or the processor lacks AVX2 or FMA (forcing a kernel the processor cannot run would stop
    the process on an illegal instruction); there, OpenBLAS's own choice stands, and the study's
    ``blas_kernel`` says which it was."""
    if "OPENBLAS_CORETYPE" in os.environ:
        return
    if {"avx2", "fma"} <= _cpu_flags(cpuinfo):
        os.environ["OPENBLAS_CORETYPE"] = PINNED_BLAS_KERNEL


def settle_blas() -> None:
    """One BLAS thread and one BLAS kernel, before NumPy loads (see the two functions)."""
    one_blas_thread_unless_chosen()
    one_blas_kernel_unless_chosen()


def _cpu_flags(cpuinfo: str) -> set[str]:
    try:
        with open(cpuinfo, encoding="ascii", errors="replace") as handle:
            for line in handle:
                name, _, value = line.partition(":")
                if name.strip() == "flags":
                    return set(value.split())
    except OSError:  # not Linux: no flags read, no kernel forced
        pass
    return set()


def blas_kernel() -> str:
    """The kernel OpenBLAS runs (``Haswell``, ``SkylakeX``, ...), read from the library NumPy
    loaded; ``"unknown"`` where NumPy does not bundle scipy-openblas."""
    # lazy: this module must not load NumPy (the functions above run before it loads)
    import numpy

    libs = os.path.join(os.path.dirname(numpy.__file__), os.pardir, "numpy.libs")
    for path in sorted(glob.glob(os.path.join(libs, "*openblas*"))):
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename"):
            function = getattr(library, symbol, None)
            if function is not None:
                function.restype = ctypes.c_char_p
                return function().decode("ascii", "replace")
    return "unknown"
