//! The arithmetic: one call's recorded VM runs and syscall charges to
//! stacks of frames with CUs, summing exactly to the call's CUs.
//!
//! Each executed instruction costs one CU, charged to the stack it ran in:
//! the frames of every call site above it (outermost first) and the
//! frames at its own pc, as the program's [`Symbols`] name them. A syscall
//! adds its recorded charge under a `syscall:<name>` frame; a CPI's charge
//! holds its callee's CUs, so the callee's own stacks are nested under the
//! CPI's frame and only the rest stays on it. A heap frame past 32 KiB
//! costs each VM run its pages before it starts (a `vm:heap frame` frame).
//! Whatever the charges do not
//! explain (a syscall that is not metered) is an explicit
//! [`UNATTRIBUTED`] frame; more charged than the call consumed is an
//! error.

use std::collections::{BTreeMap, HashMap};

use solana_pubkey::Pubkey;
use solana_sbpf::ebpf;

use super::{
    meter::{self, Charge},
    record::{Recorded, VmRun},
    symbols::{Functions, Symbols},
};

/// The frame holding CUs the charges do not explain.
pub const UNATTRIBUTED: &str = "unattributed";

/// A syscall's frame.
pub fn syscall_frame(name: &str) -> String {
    format!("syscall:{name}")
}

/// The loader's charge for a heap frame larger than 32 KiB.
pub fn heap_frame(bytes: u32) -> String {
    format!("vm:heap frame ({} KiB)", bytes / 1024)
}

/// A program's name in the profile and how its code is named.
pub struct Named<'a> {
    pub label: String,
    pub symbols: &'a dyn Symbols,
}

/// Stacks of frames (outermost first) and their CUs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    pub stacks: BTreeMap<Vec<String>, u64>,
}

impl Profile {
    /// The CUs of every stack.
    pub fn total(&self) -> u64 {
        self.stacks.values().sum()
    }

    fn add(&mut self, stack: Vec<String>, cus: u64) {
        if cus > 0 {
            *self.stacks.entry(stack).or_default() += cus;
        }
    }
}

/// What an instruction does to the call stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step<'a> {
    Plain,
    Call,
    Exit,
    Syscall(&'a str),
}

fn step<'a>(run: &'a VmRun, pc: usize) -> Step<'a> {
    let Some(bytes) = run
        .text
        .get(pc * ebpf::INSN_SIZE..(pc + 1) * ebpf::INSN_SIZE)
    else {
        return Step::Plain;
    };
    let insn = ebpf::get_insn_unchecked(bytes, 0);
    match insn.opc {
        ebpf::CALL_IMM => {
            let syscall = (!run.static_syscalls || insn.src == 0)
                .then(|| run.syscalls.get(&(insn.imm as u32)))
                .flatten();
            match syscall {
                Some(name) => Step::Syscall(name),
                None => Step::Call,
            }
        }
        ebpf::CALL_REG => Step::Call,
        ebpf::EXIT => Step::Exit,
        _ => Step::Plain,
    }
}

/// The profile of one call that consumed `cus`, its programs named by
/// `named` (by program id; a program it cannot name is profiled by its
/// id).
pub fn attribute<'n>(
    recorded: &Recorded,
    cus: u64,
    named: &'n dyn Fn(&Pubkey) -> Option<Named<'n>>,
) -> Result<Profile, String> {
    let root = recorded
        .runs
        .iter()
        .position(|run| run.stack_height == 1)
        .or((!recorded.runs.is_empty()).then_some(0))
        .ok_or("no VM ran: the call has no trace")?;
    let mut charges: HashMap<usize, Vec<Charge>> = HashMap::new();
    for charge in &recorded.charges {
        charges
            .entry(charge.index_in_trace)
            .or_default()
            .push(*charge);
    }
    let mut walk = Walk {
        recorded,
        charges,
        named,
        profile: Profile::default(),
    };
    let label = walk.label(&recorded.runs[root]);
    let charged = walk.run(root, vec![label.clone()])?;
    if charged > cus {
        return Err(format!(
            "the trace and the syscalls' charges come to {charged} CUs, more than the {cus} consumed"
        ));
    }
    walk.profile
        .add(vec![label, UNATTRIBUTED.into()], cus - charged);
    Ok(walk.profile)
}

struct Walk<'r, 'n> {
    recorded: &'r Recorded,
    charges: HashMap<usize, Vec<Charge>>,
    named: &'n dyn Fn(&Pubkey) -> Option<Named<'n>>,
    profile: Profile,
}

/// A metered syscall as the walk met it: where, its charge, and the run
/// of the CPI callee it holds, if any.
struct Syscall {
    context: usize,
    pc: usize,
    name: String,
    cus: u64,
    callee: Option<usize>,
}

impl Walk<'_, '_> {
    fn label(&self, run: &VmRun) -> String {
        match (self.named)(&run.program_id) {
            Some(named) => named.label,
            None => run.program_id.to_string(),
        }
    }

    /// Charges run `index` under `prefix` and returns its CUs.
    fn run(&mut self, index: usize, prefix: Vec<String>) -> Result<u64, String> {
        let run = &self.recorded.runs[index];
        let fallback;
        let named = (self.named)(&run.program_id);
        let symbols: &dyn Symbols = match &named {
            Some(named) => named.symbols,
            None => {
                fallback = Functions::of(run);
                &fallback
            }
        };
        let mut charges = self
            .charges
            .remove(&run.index_in_trace)
            .unwrap_or_default()
            .into_iter();
        // Call-site contexts: (parent, call site pc); 0 is the entry's.
        let mut contexts: Vec<(usize, usize)> = vec![(0, usize::MAX)];
        let mut interned: HashMap<(usize, usize), usize> = HashMap::new();
        let mut counts: HashMap<(usize, usize), u64> = HashMap::new();
        let mut syscalls: Vec<Syscall> = Vec::new();
        let mut callers: Vec<usize> = Vec::new();
        let (mut context, mut call_site) = (0, None);
        let mut total = run.trace.len() as u64 + run.heap_cus;
        self.profile.add(
            [prefix.clone(), vec![heap_frame(run.heap_bytes)]].concat(),
            run.heap_cus,
        );
        for regs in &run.trace {
            let pc = regs[11] as usize;
            if let Some(site) = call_site.take() {
                callers.push(context);
                let next = contexts.len();
                context = *interned.entry((context, site)).or_insert(next);
                if context == next {
                    contexts.push((callers[callers.len() - 1], site));
                }
            }
            *counts.entry((context, pc)).or_default() += 1;
            match step(run, pc) {
                Step::Plain => {}
                Step::Call => call_site = Some(pc),
                Step::Exit => {
                    if let Some(caller) = callers.pop() {
                        context = caller;
                    }
                }
                Step::Syscall(name) if meter::is_metered(name) => {
                    let charge = charges.next().ok_or_else(|| {
                        format!(
                            "{}: `{name}` at pc {pc} has no recorded charge",
                            self.label(run)
                        )
                    })?;
                    total += charge.cus;
                    let callee = charge.callee.and_then(|at| {
                        self.recorded
                            .runs
                            .iter()
                            .position(|r| r.index_in_trace == at)
                    });
                    syscalls.push(Syscall {
                        context,
                        pc,
                        name: name.to_string(),
                        cus: charge.cus,
                        callee,
                    });
                }
                // Not metered: its charge is left to the call's rest.
                Step::Syscall(_) => {}
            }
        }
        if let Some(extra) = charges.next() {
            return Err(format!(
                "{}: a charge of {} CUs that no syscall in its trace made",
                self.label(run),
                extra.cus
            ));
        }
        // Each context's frames: its caller's, then the call site's.
        let mut frames: Vec<Vec<String>> = Vec::with_capacity(contexts.len());
        for (i, &(parent, site)) in contexts.iter().enumerate() {
            frames.push(if i == 0 {
                prefix.clone()
            } else {
                [frames[parent].clone(), symbols.frames(site)].concat()
            });
        }
        let stack_at =
            |context: usize, pc: usize| [frames[context].clone(), symbols.frames(pc)].concat();
        for ((context, pc), n) in counts {
            self.profile.add(stack_at(context, pc), n);
        }
        for syscall in syscalls {
            let mut stack = stack_at(syscall.context, syscall.pc);
            stack.push(syscall_frame(&syscall.name));
            let mut own = syscall.cus;
            if let Some(callee) = syscall.callee {
                let mut nested = stack.clone();
                nested.push(self.label(&self.recorded.runs[callee]));
                let callee_cus = self.run(callee, nested)?;
                own = own.checked_sub(callee_cus).ok_or_else(|| {
                    format!(
                        "`{}` charged {} CUs, less than its callee's {callee_cus}",
                        syscall.name, syscall.cus
                    )
                })?;
            }
            self.profile.add(stack, own);
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn insn(opc: u8, src: u8, imm: i64) -> [u8; 8] {
        ebpf::Insn {
            ptr: 0,
            opc,
            dst: 0,
            src,
            off: 0,
            imm,
        }
        .to_array()
    }

    const MEMCPY: &str = "sol_memcpy_";
    const INVOKE: &str = "sol_invoke_signed_rust";

    fn hash(name: &str) -> u32 {
        ebpf::hash_symbol_name(name.as_bytes())
    }

    /// The caller: `entry` at 0 calls `helper` at 5, copies, invokes,
    /// exits; `helper` does one thing and returns.
    fn caller_text() -> Vec<u8> {
        [
            insn(ebpf::MOV64_IMM, 0, 1),                  // 0 entry
            insn(ebpf::CALL_IMM, 1, 3),                   // 1 call 5
            insn(ebpf::CALL_IMM, 0, hash(MEMCPY) as i64), // 2 memcpy
            insn(ebpf::CALL_IMM, 0, hash(INVOKE) as i64), // 3 CPI
            insn(ebpf::EXIT, 0, 0),                       // 4
            insn(ebpf::MOV64_IMM, 0, 2),                  // 5 helper
            insn(ebpf::EXIT, 0, 0),                       // 6
        ]
        .concat()
    }

    fn run(index: usize, height: usize, id: Pubkey, text: Vec<u8>, pcs: &[u64]) -> VmRun {
        VmRun {
            index_in_trace: index,
            stack_height: height,
            program_id: id,
            text,
            static_syscalls: true,
            syscalls: [MEMCPY, INVOKE].map(|n| (hash(n), n.to_string())).into(),
            trace: pcs
                .iter()
                .map(|&pc| {
                    let mut regs = [0; 12];
                    regs[11] = pc;
                    regs
                })
                .collect(),
            heap_cus: 0,
            heap_bytes: 32 * 1024,
        }
    }

    fn stack(frames: &[&str]) -> Vec<String> {
        frames.iter().map(|f| f.to_string()).collect()
    }

    /// Names pcs 0-4 `entry`, 5-6 `helper`, with `inlined` inside the
    /// helper's first instruction.
    struct Known;
    impl Symbols for Known {
        fn frames(&self, pc: usize) -> Vec<String> {
            match pc {
                0..=4 => stack(&["entry"]),
                5 => stack(&["helper", "inlined"]),
                _ => stack(&["helper"]),
            }
        }
    }

    fn named(id: &Pubkey) -> Option<Named<'static>> {
        (*id == Pubkey::new_from_array([1; 32])).then(|| Named {
            label: "caller".into(),
            symbols: &Known,
        })
    }

    /// The caller's 7 instructions, a 30-CU copy, and a CPI that charged
    /// 1,050 CUs of which its callee (2 instructions, named by address as
    /// nobody named it, and a 16-CU heap frame) is 18: every CU where it
    /// belongs.
    #[test]
    fn calls_syscalls_and_a_cpi_add_up_where_they_ran() {
        let caller = Pubkey::new_from_array([1; 32]);
        let callee = Pubkey::new_from_array([2; 32]);
        let mut callee_run = run(1, 2, callee, caller_text(), &[5, 6]);
        callee_run.heap_cus = 16;
        let recorded = Recorded {
            runs: vec![
                run(0, 1, caller, caller_text(), &[0, 1, 5, 6, 2, 3, 4]),
                callee_run,
            ],
            charges: vec![
                Charge {
                    index_in_trace: 0,
                    cus: 30,
                    callee: None,
                },
                Charge {
                    index_in_trace: 0,
                    cus: 1_050,
                    callee: Some(1),
                },
            ],
        };
        let profile = attribute(&recorded, 7 + 30 + 1_050, &named).unwrap();
        let callee_label = callee.to_string();
        let cpi = ["caller", "entry", "syscall:sol_invoke_signed_rust"];
        let expected: BTreeMap<Vec<String>, u64> = [
            (stack(&["caller", "entry"]), 5),
            (stack(&["caller", "entry", "helper", "inlined"]), 1),
            (stack(&["caller", "entry", "helper"]), 1),
            (stack(&["caller", "entry", "syscall:sol_memcpy_"]), 30),
            (stack(&cpi), 1_050 - 18),
            (
                [&cpi[..], &[callee_label.as_str(), "vm:heap frame (32 KiB)"]]
                    .concat()
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                16,
            ),
            (
                [&cpi[..], &[callee_label.as_str(), "entrypoint"]]
                    .concat()
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                2,
            ),
        ]
        .into();
        assert_eq!(profile.stacks, expected);
        assert_eq!(profile.total(), 1_087);
    }

    /// A run that stops in the helper (an error, a fault) is profiled up
    /// to there; what the charges do not explain is named, not spread.
    #[test]
    fn an_early_stop_and_an_unexplained_rest() {
        let caller = Pubkey::new_from_array([1; 32]);
        let recorded = Recorded {
            runs: vec![run(0, 1, caller, caller_text(), &[0, 1, 5])],
            charges: vec![],
        };
        let profile = attribute(&recorded, 3 + 4, &named).unwrap();
        let expected: BTreeMap<Vec<String>, u64> = [
            (stack(&["caller", "entry"]), 2),
            (stack(&["caller", "entry", "helper", "inlined"]), 1),
            (stack(&["caller", UNATTRIBUTED]), 4),
        ]
        .into();
        assert_eq!(profile.stacks, expected);
    }

    /// More charged than consumed, or a charge no syscall made: errors,
    /// never a profile that does not add up.
    #[test]
    fn charges_that_do_not_fit_are_refused() {
        let caller = Pubkey::new_from_array([1; 32]);
        let recorded = Recorded {
            runs: vec![run(0, 1, caller, caller_text(), &[0, 1, 5, 6, 2])],
            charges: vec![Charge {
                index_in_trace: 0,
                cus: 30,
                callee: None,
            }],
        };
        let error = attribute(&recorded, 34, &named).unwrap_err();
        assert_eq!(
            error,
            "the trace and the syscalls' charges come to 35 CUs, more than the 34 consumed"
        );
        let recorded = Recorded {
            charges: vec![
                Charge {
                    index_in_trace: 0,
                    cus: 30,
                    callee: None
                };
                2
            ],
            ..recorded
        };
        let error = attribute(&recorded, 100, &named).unwrap_err();
        assert_eq!(
            error,
            "caller: a charge of 30 CUs that no syscall in its trace made"
        );
    }
}
