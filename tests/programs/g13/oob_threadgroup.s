; oob_threadgroup: 256 bytes of threadgroup memory; thread lid stores a word at tg[lid], so
; in a threadgroup of 128 threads SIMD-groups 0 and 1 (lid < 64) fit and SIMD-group 2 is the
; first to reach past the end: a guest fault at the threadgroup_store (pc 0x4).
; wavejit: threadgroup_size 256
    get_sr r3, sr51 (thread_index_in_threadgroup)
    threadgroup_store i32, x, r3, 0, r3l
    stop
