//! CPU tokens: the one way to reach a `#[target_feature]` kernel safely.

/// Declares `$token`, a zero-sized proof that this CPU has `$features`, made
/// only by `$token::detect()` (runtime detection through `cpufeatures`, which
/// also checks that the OS saves the wider registers; cached after the first
/// call), and `$token::$method`, the safe entry to `$kernel`.
///
/// `$kernel` must be compiled with `#[target_feature(enable = …)]` naming
/// exactly `$features`: holding the token is then the whole safety argument
/// of calling it.
macro_rules! cpu_token {
    (
        $(#[$doc:meta])*
        $token:ident($cpuid:ident: $($feature:tt),+);
        $(#[$method_doc:meta])*
        fn $method:ident($($arg:ident: $ty:ty),*) => $kernel:ident;
    ) => {
        cpufeatures::new!($cpuid, $($feature),+);

        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub(crate) struct $token(());

        impl $token {
            /// The token, if this CPU has every feature the kernel is compiled
            /// with (detected once, then cached).
            #[inline]
            pub(crate) fn detect() -> Option<Self> {
                $cpuid::get().then_some($token(()))
            }

            $(#[$method_doc])*
            #[inline]
            pub(crate) fn $method(self, $($arg: $ty),*) {
                // SAFETY: `self` exists only when `detect` found every feature
                // in the token's list, which is the kernel's
                // `#[target_feature]` list.
                unsafe { $kernel($($arg),*) }
            }
        }
    };
}
