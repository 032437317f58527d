//! `make idl IDL=<file>`: the benchmark generated from a program's IDL
//! (docs/idl.md). Options from the environment, as the Makefile passes
//! them: `ZERO_COPY`, `PACKED` (legacy IDLs), `READ`, `UPDATE`, `ARG`,
//! `STRING_LEN`, `VEC_LEN`, `DATA`, `ANCHOR` (the anchor-lang release of
//! the Anchor programs), `PROFILE` (every row profiled, by inlined frame)
//! `BASELINE` (an earlier run's `results.json`: exit 1 on any moved CU
//! or byte), `ACCOUNTS` (a folder of the team's accounts) and `CAPACITY`
//! (`Type.field=N,...`): each variable account type sized at fixed
//! capacity.

use std::{path::Path, process::ExitCode};

use idl::{
    capacity::Choices,
    gate, guard,
    input::Assumptions,
    plan::FieldChoices,
    run::{self, Options},
    value::Lengths,
};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1).filter(|p| !p.is_empty()) else {
        eprintln!("make idl: give the IDL to measure: make idl IDL=path/to/program.json");
        return ExitCode::FAILURE;
    };
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let defaults = Lengths::default();
    let length = |name: &str, default: usize| -> Result<usize, String> {
        match var(name).as_str() {
            "" => Ok(default),
            text => text.parse().map_err(|_| {
                format!("{name}={text} is not a length; give a number of bytes or elements")
            }),
        }
    };
    let lengths = match (
        length("STRING_LEN", defaults.string),
        length("VEC_LEN", defaults.list),
    ) {
        (Ok(string), Ok(list)) => Lengths { string, list },
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("make idl: {e}");
            return ExitCode::FAILURE;
        }
    };
    let fields = match FieldChoices::parse(&var("READ"), &var("UPDATE"))
        .and_then(|fields| fields.with_args(&var("ARG")))
    {
        Ok(fields) => fields,
        Err(e) => {
            eprintln!("make idl: {e}");
            return ExitCode::FAILURE;
        }
    };
    let anchor = match idl::render::anchor1::release(&var("ANCHOR")) {
        Ok(release) => release,
        Err(e) => {
            eprintln!("make idl: {e}");
            return ExitCode::FAILURE;
        }
    };
    let capacities = match Choices::parse(&var("CAPACITY")) {
        Ok(choices) => choices,
        Err(e) => {
            eprintln!("make idl: {e}");
            return ExitCode::FAILURE;
        }
    };
    let options = Options {
        assumptions: Assumptions::from_lists(&var("ZERO_COPY"), &var("PACKED")),
        lengths,
        fields,
        data: Some(var("DATA")).filter(|d| !d.is_empty()).map(Into::into),
        anchor: Some(anchor),
        profile: !matches!(var("PROFILE").as_str(), "" | "0"),
        accounts: Some(var("ACCOUNTS"))
            .filter(|d| !d.is_empty())
            .map(Into::into),
        capacities,
    };
    let Ok(root) = std::env::current_dir() else {
        eprintln!(
            "make idl: {path}: the working directory cannot be read; run it from the repository"
        );
        return ExitCode::from(2);
    };
    // A panic is a bug in make idl: where one item's program caught it, it
    // is that item's reason; anywhere else it ends the run in one line
    // (below), not a backtrace.
    let panicked = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let noted = panicked.clone();
    std::panic::set_hook(Box::new(move |info| {
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        if let Ok(mut note) = noted.lock() {
            *note = format!("{}{at}", guard::message(info.payload()));
        }
    }));
    let outcome = std::panic::catch_unwind(|| {
        run::run(&root, Path::new(&path), &options, &mut |line| {
            eprintln!("{line}")
        })
    });
    let run = match outcome {
        Ok(Ok(run)) => run,
        Ok(Err(e)) => {
            eprintln!("make idl: {e}");
            return ExitCode::from(2);
        }
        Err(_) => {
            let (stage, item) = guard::current();
            let said = panicked.lock().map(|s| s.clone()).unwrap_or_default();
            eprintln!("make idl: {path}: {stage} {item}: {}", guard::bug(&said));
            return ExitCode::from(2);
        }
    };
    println!("{}", run.summary);
    let dir = run.dir.display();
    println!("Written: {dir}/summary.md, results.json and cases.json");
    let relative = run.dir.strip_prefix(&root).unwrap_or(&run.dir).display();
    println!(
        "Replay it: make litesvm IDL_RUN={relative} (another SVM), make fixtures IDL_RUN={relative} (Mollusk fixtures)"
    );
    // The page shows every run: this one joins it.
    match benches::report::page::write(&root.join("target/benches")) {
        Ok(page) => println!("The page, with this run: {}", page.display()),
        Err(e) => {
            eprintln!("make idl: the page (target/benches/report.html) was not refreshed: {e}")
        }
    }
    let mut status = ExitCode::SUCCESS;
    if !run.failures.is_empty() {
        eprintln!(
            "make idl: {} cases broke the contract (a bug in the generated programs or the oracle):\n{}",
            run.failures.len(),
            run.failures.join("\n")
        );
        status = ExitCode::FAILURE;
    }
    let baseline = var("BASELINE");
    if !baseline.is_empty() {
        let compared = gate::read(Path::new(&baseline))
            .and_then(|earlier| Ok((earlier, gate::read(&run.dir.join("results.json"))?)));
        match compared {
            Err(e) => {
                eprintln!("make idl: {e}");
                return ExitCode::from(2);
            }
            Ok((earlier, now)) => {
                let moved = gate::moved(&earlier, &now);
                if moved.is_empty() {
                    println!(
                        "make idl: BASELINE={baseline}: all {} rows unchanged (CUs, bytes, outcome)",
                        now.len()
                    );
                } else {
                    eprintln!(
                        "make idl: BASELINE={baseline}: {} rows moved:\n  {}\nIf the change is intended, keep this run's {}/results.json as the new baseline.",
                        moved.len(),
                        moved.join("\n  "),
                        relative
                    );
                    status = ExitCode::FAILURE;
                }
            }
        }
    }
    status
}
