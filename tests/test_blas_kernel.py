"""One OpenBLAS kernel for the simulating commands (verify.base.threads): the quick region study's
plateau correlations differed between an AVX-512 Intel machine (SkylakeX kernel) and an AVX-512
AMD one (Haswell), which failed CI's comparison with the committed summary."""

import os
import platform
import subprocess
import sys

import pytest

from verify.base import threads


@pytest.fixture
def no_coretype(monkeypatch):
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)


def _cpuinfo(tmp_path, flags):
    path = tmp_path / "cpuinfo"
    path.write_text(f"processor\t: 0\nflags\t\t: {flags}\n\nprocessor\t: 1\nflags\t\t: {flags}\n")
    return str(path)


def test_pinned_where_the_processor_runs_the_kernel(tmp_path, no_coretype):
    threads.one_blas_kernel_unless_chosen(_cpuinfo(tmp_path, "fpu sse2 avx fma avx2 avx512f"))
    assert os.environ["OPENBLAS_CORETYPE"] == threads.PINNED_BLAS_KERNEL


@pytest.mark.parametrize("flags", ["fpu sse2 avx", "fpu sse2 avx avx2", "fpu sse2 avx fma"])
def test_not_pinned_where_the_processor_lacks_avx2_or_fma(tmp_path, no_coretype, flags):
    # forcing Haswell there would stop the process on an illegal instruction
    threads.one_blas_kernel_unless_chosen(_cpuinfo(tmp_path, flags))
    assert "OPENBLAS_CORETYPE" not in os.environ


def test_not_pinned_where_no_flags_can_be_read(tmp_path, no_coretype):
    threads.one_blas_kernel_unless_chosen(str(tmp_path / "absent"))
    assert "OPENBLAS_CORETYPE" not in os.environ


def test_the_users_choice_stands(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Sandybridge")
    threads.one_blas_kernel_unless_chosen(_cpuinfo(tmp_path, "avx fma avx2"))
    assert os.environ["OPENBLAS_CORETYPE"] == "Sandybridge"


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="OpenBLAS x86 kernels")
@pytest.mark.parametrize("chosen", [None, "Sandybridge"])
def test_numpy_runs_the_kernel_settled_before_it_loads(chosen):
    # in a fresh process, as the commands do it: settle first, then NumPy loads OpenBLAS
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    if chosen:
        env["OPENBLAS_CORETYPE"] = chosen
    code = ("from verify.base import threads; threads.settle_blas(); "
            "import numpy; print(threads.blas_kernel(), threads._cpu_flags('/proc/cpuinfo') >= {'avx2', 'fma'})")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()
    kernel, capable = out[0], out[1] == "True"
    if kernel == "unknown":
        pytest.skip("NumPy does not bundle scipy-openblas here")
    if chosen:
        assert kernel == chosen
    elif capable:
        assert kernel == threads.PINNED_BLAS_KERNEL
