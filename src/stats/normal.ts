// The standard normal and chi-square(1) tails the trust statistics need, in closed-form approximations.

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * The complementary error function, erfc(x), by the Chebyshev fit of Numerical Recipes (2nd ed., 6.2, `erfcc`):
 * relative error below 1.2e-7 everywhere, enough for p-values printed to three decimals.
 */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** The upper tail of a chi-square with one degree of freedom: P(X >= x) = erfc(sqrt(x / 2)). */
export function chiSquare1Tail(x: number): number {
  if (!(x > 0)) return 1;
  return Math.min(1, erfc(Math.sqrt(x / 2)));
}
