//! A bug in the generator confined to what it happened in. A panic while
//! one account's, instruction's or event's program is rendered or checked
//! becomes that item's reason (the others still run); one anywhere else
//! ends the run with one line naming the IDL, the stage and the item
//! (`make idl` exits 2). Either way it is a bug: the reason says so, and
//! the property test (`tests/mutated.rs`) fails on it.

use std::{
    any::Any,
    panic::{self, AssertUnwindSafe},
    sync::Mutex,
};

/// What every reason that comes from a panic contains.
pub const BUG: &str = "a bug in make idl";

/// The stage the run is in and the item it works on, for the line a panic
/// outside any item ends the run with.
static STAGE: Mutex<(String, String)> = Mutex::new((String::new(), String::new()));

/// Notes that the run is at `stage` (`rendering`), on `item` (an account,
/// instruction, event or program name; empty for the whole IDL).
pub fn stage(stage: &str, item: &str) {
    if let Ok(mut at) = STAGE.lock() {
        *at = (stage.to_string(), item.to_string());
    }
}

/// The stage and item last noted.
pub fn current() -> (String, String) {
    STAGE.lock().map(|at| at.clone()).unwrap_or_default()
}

/// `f`'s value, or the reason a panic in it gives: what it said, as
/// [`BUG`].
pub fn caught<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| bug(&message(payload.as_ref())))
}

/// The reason for a panic that said `message`.
pub fn bug(message: &str) -> String {
    format!("{BUG} (the generator panicked: {message}); please report it with the IDL")
}

/// What a panic said.
pub fn message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_reason_and_a_value_passes() {
        assert_eq!(caught(|| 7), Ok(7));
        let reason = caught(|| -> u8 { panic!("index {} out of range", 9) }).unwrap_err();
        assert!(reason.starts_with(BUG), "{reason}");
        assert!(reason.contains("index 9 out of range"), "{reason}");
    }
}
