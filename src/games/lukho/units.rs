//! Units of Lukho counts that are not plain seeds.

use std::ops::{Add, AddAssign, Sub};

/// A count of half-seeds: a split share of an odd number of seeds is exact in it. `T` is the
/// integer that holds it (`i16` for one game's margin, wider for sums over many games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct HalfSeeds<T = i16>(pub T);

impl<T: Copy + Into<i64>> HalfSeeds<T> {
    /// In seeds (halves possible).
    #[inline]
    pub fn seeds(self) -> f64 {
        self.0.into() as f64 / 2.0
    }

    /// The same count in a wider integer.
    #[inline]
    pub fn widen<U: From<T>>(self) -> HalfSeeds<U> {
        HalfSeeds(U::from(self.0))
    }
}

impl<T: Add<Output = T>> Add for HalfSeeds<T> {
    type Output = HalfSeeds<T>;
    #[inline]
    fn add(self, o: HalfSeeds<T>) -> HalfSeeds<T> {
        HalfSeeds(self.0 + o.0)
    }
}

impl<T: AddAssign> AddAssign for HalfSeeds<T> {
    #[inline]
    fn add_assign(&mut self, o: HalfSeeds<T>) {
        self.0 += o.0;
    }
}

impl<T: Sub<Output = T>> Sub for HalfSeeds<T> {
    type Output = HalfSeeds<T>;
    #[inline]
    fn sub(self, o: HalfSeeds<T>) -> HalfSeeds<T> {
        HalfSeeds(self.0 - o.0)
    }
}
