//! `report.html` in a real browser: headless Chromium (Debian's, which
//! `make test` installs where it can, driven over the DevTools protocol
//! by `cdp`) opens the page from disk, as a reader would, and the test
//! works its table through the page's own controls. It runs last in
//! `make test` (`-- --ignored`), once `make bench` and every `make idl`
//! run the tests made have written what the page shows.
//!
//! One browser, one page, checked part by part in this order (each part
//! leaves the page's controls as it found them, but the table's family
//! filter, which the screenshot clears): the records table, the `make
//! idl` runs' sections, the charts; then what the page logged and
//! fetched.

mod browser;
mod charts;
mod expected;
mod idl;
mod table;

use std::fs;

use benches::{Workspace, report::page};
use serde_json::json;

use self::{browser::choose, browser::chromium, browser::eval, expected::idl_runs};
use crate::cdp::Page;

#[test]
#[ignore = "make test runs it last, when make bench, make profile and the make idl runs have written what the page shows"]
fn the_page_in_a_real_browser() {
    let workspace = Workspace::current();
    let dir = workspace.benches_dir();
    let results = dir.join("results.json");
    assert!(
        results.is_file(),
        "no target/benches/results.json: run make bench first"
    );
    let path = page::write(&dir).unwrap_or_else(|e| panic!("{e}"));
    let bytes = fs::metadata(&path).unwrap().len();
    assert!(bytes < 3 << 20, "report.html is {bytes} bytes, over 3 MB");
    let runs = idl_runs(&dir.join("idl"));
    assert!(
        !runs.is_empty(),
        "no make idl run under target/benches/idl/: make test's idl tests make them"
    );
    let Some(chromium) = chromium() else { return };

    let tab = Page::launch(&chromium, (1400, 2400));
    for domain in ["Runtime", "Log", "Network"] {
        tab.call(&format!("{domain}.enable"), json!({}));
    }
    let url = format!("file://{}", path.canonicalize().unwrap().display());
    tab.navigate(&url);
    tab.wait_for("#families tbody tr");
    table::check(&tab, &dir);
    idl::check(&tab, &dir, &runs);
    charts::check(&tab, &dir, &runs);

    // For people to look at: the top of the page, the table filtered.
    let families = "#families";
    choose(&tab, families, "data-compare=a", "");
    choose(&tab, families, "data-compare=b", "");
    choose(&tab, families, "data-filter=family", "");
    fs::write(dir.join("report.png"), tab.screenshot()).unwrap();

    // Console errors, exceptions and log entries, and every request.
    let errors: Vec<String> = (tab.events("Runtime.consoleAPICalled").into_iter())
        .filter(|call| call["type"] == "error")
        .map(|call| format!("console.error: {}", call["args"]))
        .chain(
            (tab.events("Runtime.exceptionThrown").into_iter())
                .map(|thrown| format!("exception: {}", thrown["exceptionDetails"])),
        )
        .chain(
            (tab.events("Log.entryAdded").into_iter())
                .map(|entry| format!("{}: {}", entry["entry"]["level"], entry["entry"]["text"])),
        )
        .collect();
    assert!(errors.is_empty(), "the page logged errors: {errors:?}");
    let requests: Vec<String> = (tab.events("Network.requestWillBeSent").into_iter())
        .map(|sent| sent["request"]["url"].as_str().unwrap().to_string())
        .collect();
    assert!(
        requests.iter().all(|r| *r == url),
        "the page made requests besides its own file: {requests:?}"
    );
    let resources = eval(&tab, "performance.getEntriesByType('resource').length");
    assert_eq!(resources, 0, "resources fetched by the page");
}
