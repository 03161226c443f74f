//! The round sequence every SIMD kernel shares.

/// Sixteen SHA-2 rounds from round `$base`, over the working variables
/// `a..h` named in order: each round's names are rotated one place instead of
/// moving the values. The kernel in scope defines `round!(a, b, c, d, e, f,
/// g, h, t)` and `schedule!(t)` (expanded only where `$schedule` is true:
/// rounds 16 and up compute their message word first).
macro_rules! sixteen_rounds {
    ($base:expr, $schedule:expr, [$a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident]) => {{
        let base = $base;
        sixteen_rounds!(@step base, $schedule, 0, $a, $b, $c, $d, $e, $f, $g, $h);
        sixteen_rounds!(@step base, $schedule, 1, $h, $a, $b, $c, $d, $e, $f, $g);
        sixteen_rounds!(@step base, $schedule, 2, $g, $h, $a, $b, $c, $d, $e, $f);
        sixteen_rounds!(@step base, $schedule, 3, $f, $g, $h, $a, $b, $c, $d, $e);
        sixteen_rounds!(@step base, $schedule, 4, $e, $f, $g, $h, $a, $b, $c, $d);
        sixteen_rounds!(@step base, $schedule, 5, $d, $e, $f, $g, $h, $a, $b, $c);
        sixteen_rounds!(@step base, $schedule, 6, $c, $d, $e, $f, $g, $h, $a, $b);
        sixteen_rounds!(@step base, $schedule, 7, $b, $c, $d, $e, $f, $g, $h, $a);
        sixteen_rounds!(@step base, $schedule, 8, $a, $b, $c, $d, $e, $f, $g, $h);
        sixteen_rounds!(@step base, $schedule, 9, $h, $a, $b, $c, $d, $e, $f, $g);
        sixteen_rounds!(@step base, $schedule, 10, $g, $h, $a, $b, $c, $d, $e, $f);
        sixteen_rounds!(@step base, $schedule, 11, $f, $g, $h, $a, $b, $c, $d, $e);
        sixteen_rounds!(@step base, $schedule, 12, $e, $f, $g, $h, $a, $b, $c, $d);
        sixteen_rounds!(@step base, $schedule, 13, $d, $e, $f, $g, $h, $a, $b, $c);
        sixteen_rounds!(@step base, $schedule, 14, $c, $d, $e, $f, $g, $h, $a, $b);
        sixteen_rounds!(@step base, $schedule, 15, $b, $c, $d, $e, $f, $g, $h, $a);
    }};
    (@step $base:ident, $schedule:expr, $i:literal, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {
        if $schedule {
            schedule!($base + $i);
        }
        round!($a, $b, $c, $d, $e, $f, $g, $h, $base + $i);
    };
}
