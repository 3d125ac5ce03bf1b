//! The `mancala` command line: parsing and printing only; the work is in the library.
mod cli;

fn main() {
    std::process::exit(cli::run());
}
