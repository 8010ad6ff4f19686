//! `pawnrace xboard`: the XBoard/WinBoard protocol (CECP v2) on
//! stdin/stdout, for `xboard -fcp "pawnrace xboard"`.

use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct XboardArgs {
    /// The search's tables, MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
}

pub fn run(args: XboardArgs) -> ExitCode {
    super::init_tracing("warn");
    match pawnrace::server::xboard::run(args.hash) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pawnrace xboard: {e}");
            ExitCode::FAILURE
        }
    }
}
