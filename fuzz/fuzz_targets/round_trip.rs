//! Whatever parses prints in canonical form, and the canonical form parses back to the same
//! expression (and prints the same).
#![no_main]

use dice_notation::{Expr, Expression};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The tree: syntax and per-term checks.
    if let Ok(tree) = Expr::parse(text) {
        let canonical = tree.to_string();
        let again =
            Expr::parse(&canonical).unwrap_or_else(|err| panic!("{text:?} → {canonical:?}: {err}"));
        assert_eq!(again, tree, "{text:?} → {canonical:?}");
        assert_eq!(again.to_string(), canonical);
    }
    // The whole expression: every limit.
    if let Ok(e) = Expression::parse(text) {
        let canonical = e.to_string();
        let again = Expression::parse(&canonical)
            .unwrap_or_else(|err| panic!("{text:?} → {canonical:?}: {err}"));
        assert_eq!(again, e, "{text:?} → {canonical:?}");
        assert_eq!(again.to_string(), canonical);
        assert_eq!(Expression::from_expr(e.expr().clone()).unwrap(), e);
    }
});
