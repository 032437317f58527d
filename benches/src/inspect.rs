//! Mollusk's invocation inspect callback as the harness uses it: each
//! invocation read as it returns, what the reading gives kept until the
//! caller takes it. The tracer ([`crate::trace::Tracer`]), the profile's
//! recorder ([`crate::profile::Recorder`]) and the accounts seen inside the
//! VM ([`crate::vm::InsideVm`]) are each one [`Inspector`], differing only
//! in how they read an invocation.

use std::{cell::RefCell, rc::Rc};

use mollusk_svm::{InvocationInspectCallback, Mollusk};
use solana_program_runtime::invoke_context::InvokeContext;
use solana_pubkey::Pubkey;
use solana_transaction_context::instruction_accounts::InstructionAccount;

/// Reads an invocation that just returned into what is kept; `traced`:
/// whether Mollusk traced its registers (made with register tracing).
pub type Read<T> = fn(&InvokeContext, traced: bool, kept: &RefCell<Vec<T>>);

/// Keeps what [`Read`] gives after each invocation of the Mollusk it is
/// [`install`](Inspector::install)ed in. Clones share what is kept.
pub struct Inspector<T> {
    kept: Rc<RefCell<Vec<T>>>,
    before: fn(),
    read: Read<T>,
}

impl<T> Clone for Inspector<T> {
    fn clone(&self) -> Self {
        Self {
            kept: Rc::clone(&self.kept),
            before: self.before,
            read: self.read,
        }
    }
}

impl<T: 'static> Inspector<T> {
    /// Reads every invocation with `read`.
    pub fn new(read: Read<T>) -> Self {
        Self {
            kept: Rc::default(),
            before: || {},
            read,
        }
    }

    /// Also runs `before` as each invocation starts.
    pub fn before_each(self, before: fn()) -> Self {
        Self { before, ..self }
    }

    /// What was kept since the last take, in order.
    pub fn take(&self) -> Vec<T> {
        std::mem::take(&mut self.kept.borrow_mut())
    }

    /// Makes `mollusk` report to this inspector (instead of, with register
    /// tracing, writing trace files).
    pub fn install(&self, mollusk: &mut Mollusk) {
        mollusk.invocation_inspect_callback = Box::new(self.clone());
    }
}

impl<T: 'static> InvocationInspectCallback for Inspector<T> {
    fn before_invocation(
        &self,
        _: &Mollusk,
        _: &Pubkey,
        _: &[u8],
        _: &[InstructionAccount],
        _: &mut InvokeContext,
        _: bool,
    ) {
        (self.before)();
    }

    fn after_invocation(&self, _: &Mollusk, invoke_context: &InvokeContext, traced: bool) {
        (self.read)(invoke_context, traced, &self.kept);
    }
}
