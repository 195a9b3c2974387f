//! Whatever parses prints in canonical form, and the canonical form parses back to the same
//! expression (and prints the same). A first byte 0 to 4 picks the dialect
//! (`Dialect::ALL[byte]`, the rest is the text; otherwise the whole input is text in this
//! crate's grammar); whatever dialect an expression was written in, its canonical form is in
//! this crate's grammar and reads back to the same expression.
#![no_main]

use dice_notation::{Dialect, Expr, Expression};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (dialect, rest) = match data.split_first() {
        Some((&pick, rest)) if usize::from(pick) < Dialect::ALL.len() => {
            (Dialect::ALL[usize::from(pick)], rest)
        }
        _ => (Dialect::Default, data),
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if dialect != Dialect::Default {
        if let Ok(e) = Expression::parse_with(text, dialect) {
            let canonical = e.to_string();
            let again = Expression::parse(&canonical)
                .unwrap_or_else(|err| panic!("{dialect} {text:?} → {canonical:?}: {err}"));
            assert_eq!(again, e, "{dialect} {text:?} → {canonical:?}");
            assert_eq!(again.to_string(), canonical);
        }
        return;
    }
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
