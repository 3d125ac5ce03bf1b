//! The `mancala` command line: parsing and printing only; the work is in the library.
mod cli;

fn main() {
    // Printing into a closed pipe (`mancala … | head`) should end the process quietly, as
    // command-line tools do, not panic in `println!`.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(cli::run());
}
