//! A hint to the CPU to bring memory into its caches ahead of a read.

/// Ask the CPU to bring the cache line holding `p` into its caches (nothing where there is no
/// such instruction). A hint only: it reads nothing into the program and cannot fault, so any
/// address will do.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching reads nothing into the program and cannot fault.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
