#!/usr/bin/env bash
# Regenerates the benchmark kernel objects (needs clang-14, llc-14, ld.lld-14; tests and
# benchmarks only read the checked-in results).
set -euo pipefail
cd "$(dirname "$0")"
for cpu in gfx900 tonga; do
  clang-14 -target amdgcn-amd-amdhsa -mcpu=$cpu -x cl -cl-std=CL1.2 -cl-no-stdinc -nogpulib \
    -O2 -ffp-contract=off -S -emit-llvm -o alu_heavy.$cpu.ll alu_heavy.cl
  llc-14 -O2 -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -o alu_heavy.$cpu.s alu_heavy.$cpu.ll
  llc-14 -O2 -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -filetype=obj -o alu_heavy.$cpu.o alu_heavy.$cpu.ll
  ld.lld-14 -shared -o alu_heavy.$cpu.hsaco alu_heavy.$cpu.o
  rm -f alu_heavy.$cpu.o alu_heavy.$cpu.ll
done
# TeraScale (r600 family): llc's relocatable object is what the loader reads. A chip with FMA
# (LLVM's FeatureFMA: cypress, cayman), else __builtin_fmaf is an unsupported library call.
for cpu in cayman; do
  clang-14 -target r600-- -mcpu=$cpu -x cl -cl-std=CL1.2 -cl-no-stdinc -nogpulib \
    -O2 -ffp-contract=off -S -emit-llvm -o alu_heavy.$cpu.ll alu_heavy.cl
  llc-14 -O2 -mtriple=r600-- -mcpu=$cpu -o alu_heavy.$cpu.s alu_heavy.$cpu.ll
  llc-14 -O2 -mtriple=r600-- -mcpu=$cpu -filetype=obj -o alu_heavy.$cpu.o alu_heavy.$cpu.ll
  rm -f alu_heavy.$cpu.ll
done
