//! Rolls a dice expression and prints its exact odds.
//!
//! ```sh
//! cargo run -p dice-notation --example roll_expression -- "4d6kh3" [seed]
//! ```

use dice_notation::Expression;
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

fn main() {
    let mut args = std::env::args().skip(1);
    let text = args.next().unwrap_or_else(|| "4d6kh3".to_owned());
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let e = match Expression::parse(&text) {
        Ok(e) => e,
        Err(err) => {
            eprintln!("{err:#}");
            std::process::exit(2);
        }
    };
    println!("{e}");
    println!(
        "roll: {}",
        e.roll(&mut Xoshiro256PlusPlus::seed_from_u64(seed))
    );
    match e.distribution() {
        Ok(d) => {
            for (o, p) in d.iter() {
                println!("{o:>8} {p:.6} {}", "#".repeat((p * 100.0).round() as usize));
            }
            if d.tail() > 0.0 {
                println!("(beyond) {:.1e}", d.tail());
            }
            println!("mean {:.4}, sd {:.4}", d.mean(), d.std_dev());
        }
        Err(err) => println!("exact odds: {err}"),
    }
}
