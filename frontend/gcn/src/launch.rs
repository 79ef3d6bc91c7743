//! Launch state for LLVM-compiled GCN kernels: initial SGPRs, VGPRs, kernarg and dispatch packet.
