//! `mancala bench`: the signature run ([`mancala::signature`]): one number per engine, and one
//! for the whole run.

use anyhow::Result;
use clap::Args;
use serde_json::json;

#[derive(Args)]
pub struct BenchArgs {
    /// Print the entries and the combined signature as one JSON document.
    #[arg(long)]
    json: bool,
}

pub fn bench(a: BenchArgs) -> Result<()> {
    let scratch = std::env::temp_dir().join(format!("mancala-bench-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let run = mancala::signature::run(&scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    let entries = run.map_err(anyhow::Error::msg)?;
    let signature = mancala::signature::combined(&entries);
    if a.json {
        let list: Vec<_> = entries
            .iter()
            .map(|e| {
                json!({"engine": e.engine, "workload": e.workload, "signature": e.signature,
                       "work": e.work, "unit": e.unit, "seconds": e.seconds})
            })
            .collect();
        println!("{}", json!({"entries": list, "signature": signature}));
        return Ok(());
    }
    for e in &entries {
        let rate = e.work as f64 / e.seconds.max(1e-9);
        println!(
            "{:<18} {:>20}  {:>12} {:<9} {:>7.2} s {:>12.0} {}/s   {}",
            e.engine, e.signature, e.work, e.unit, e.seconds, rate, e.unit, e.workload
        );
    }
    println!("signature {signature}");
    Ok(())
}
