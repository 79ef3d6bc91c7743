//! Arbitrary bytes never make the decoder, printer or encoder panic.
use wavejit_gcn::{decode, print, Gen};

#[test]
fn random_bytes_never_panic() {
    // xorshift64*: a fixed seed keeps the test deterministic.
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        s.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let mut decoded = 0;
    for _ in 0..20_000 {
        let len = (next() % 13) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        for g in Gen::ALL {
            if let Ok(i) = decode(g, &bytes, 0) {
                decoded += 1;
                assert!(i.len as usize <= bytes.len());
                let _ = print(&i);
                let _ = wavejit_gcn::encode::encode(&i);
            }
        }
    }
    assert!(decoded > 1000, "only {decoded} random words decoded");
}
