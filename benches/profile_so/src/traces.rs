//! `make profile SO=<program.so> TRACES=<SBF_TRACE_DIR>`: a team's tests
//! as they are, profiled from the register traces LiteSVM
//! (`register-tracing`) and mollusk-svm write when `SBF_TRACE_DIR` is set:
//! per invocation `<digest>.regs` (r0-r10 and the pc, twelve
//! little-endian `u64` per executed instruction), `.insns` (each
//! instruction run), `.program_id` and `.exec.sha256` (the ELF's sha256).
//!
//! Each invocation of the given `.so` is read with no VM: every executed
//! instruction costs one CU, as the VM charges it, and each syscall is
//! charged by agave's own cost rules (solana-syscalls, at the default
//! execution costs) applied to its arguments: those in registers, and
//! those in memory the trace shows, from a shadow of memory rebuilt from
//! every store and load it ran. An invocation's total is exact unless a
//! syscall's charge depends on what the trace does not show (a CPI's
//! callee, a PDA search's bumps, bytes in memory no instruction touched),
//! and then that syscall and the part not known are named; the known part
//! is charged, never a guess.

use std::{
    collections::{BTreeMap, HashMap},
    fs,
    path::Path,
};

use benches::profile::{Named, attribute};
use benches::profile::{Recorded, VmRun, meter::Charge};
use mollusk_svm::result::{InstructionResult, ProgramResult};
use solana_program_error::ProgramError;
use solana_program_runtime::execution_budget::SVMTransactionExecutionCost;
use solana_pubkey::Pubkey;
use solana_sbpf::ebpf;

use crate::{Options, Profiled, Run, So, elf, replay::Refused};

/// Twelve `u64` per executed instruction.
const ROW: usize = 12 * 8;

/// One traced invocation of the program.
#[derive(Clone, Debug)]
pub struct Traced {
    /// Its `.regs` file's name.
    pub name: String,
    pub program_id: Pubkey,
    pub regs: Vec<[u64; 12]>,
}

/// A trace of the program, checked ([`load_dir`]); its registers are read
/// again when it is profiled, one trace in memory at a time.
#[derive(Clone, Debug)]
pub struct TraceFile {
    pub name: String,
    pub program_id: Pubkey,
    path: std::path::PathBuf,
}

impl TraceFile {
    /// The invocation, its registers read.
    pub fn load(&self) -> Result<Traced, String> {
        let bytes = fs::read(&self.path).map_err(|e| format!("unreadable: {e}"))?;
        Ok(Traced {
            name: self.name.clone(),
            program_id: self.program_id,
            regs: rows(&bytes),
        })
    }
}

/// `.regs` bytes as rows of registers (whole rows only).
fn rows(bytes: &[u8]) -> Vec<[u64; 12]> {
    bytes
        .as_chunks::<ROW>()
        .0
        .iter()
        .map(|row| {
            let (words, _) = row.as_chunks::<8>();
            std::array::from_fn(|i| u64::from_le_bytes(words[i]))
        })
        .collect()
}

/// The invocations of `so` in `dir`, and every trace not read, named: the
/// traces of other programs (by their ELF's sha256), and files cut short
/// or of another build. `Err` where the folder holds no trace of `so`.
/// `template`: the program as the loader makes it ([`benches::vm::loaded_run`]).
pub fn load_dir(
    dir: &Path,
    so: &So,
    template: &VmRun,
) -> Result<(Vec<TraceFile>, Vec<Refused>), String> {
    let shown = dir.display();
    let entries = fs::read_dir(dir).map_err(|e| {
        format!("TRACES={shown}: {e}; give the folder your tests wrote with SBF_TRACE_DIR set")
    })?;
    let mut stems: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".regs").map(str::to_string)
        })
        .collect();
    stems.sort();
    if stems.is_empty() {
        return Err(format!(
            "TRACES={shown}: no register trace (`<digest>.regs`) in it; run your tests with SBF_TRACE_DIR={shown} (litesvm's `register-tracing` feature, or mollusk-svm's)"
        ));
    }
    // The `.so`, its copy with section names (which the tracing loaders
    // need), and the `.so.debug` beside it (the file as linked, with its
    // section names): the text each ran is checked against the `.so`'s
    // at every traced pc.
    let linked = fs::read(split_debug::debug_path(&so.path))
        .ok()
        .map(|bytes| crate::elf::sha256(&bytes));
    let ours: Vec<String> = [
        Some(so.sha256.clone()),
        Some(crate::elf::sha256(&benches::trace::with_section_names(
            &so.elf,
        ))),
        linked,
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut kept = Vec::new();
    let mut refused = Vec::new();
    let mut others: BTreeMap<String, usize> = BTreeMap::new();
    for stem in stems {
        let file = |ext: &str| dir.join(format!("{stem}.{ext}"));
        let name = format!("{stem}.regs");
        let mut refuse = |reason: String| {
            refused.push(Refused {
                fixture: name.clone(),
                reason,
            })
        };
        let sha = match fs::read_to_string(file("exec.sha256")) {
            Ok(sha) => sha.trim().to_string(),
            Err(_) => {
                refuse(format!(
                    "no `{stem}.exec.sha256` beside it (the ELF that ran was not in the program cache): it cannot be matched to SO="
                ));
                continue;
            }
        };
        if !ours.contains(&sha) {
            *others.entry(sha).or_default() += 1;
            continue;
        }
        let program_id = match fs::read_to_string(file("program_id"))
            .ok()
            .and_then(|id| id.trim().parse::<Pubkey>().ok())
        {
            Some(id) => id,
            None => {
                refuse(format!(
                    "no readable `{stem}.program_id` beside it (a base58 address)"
                ));
                continue;
            }
        };
        let bytes = match fs::read(file("regs")) {
            Ok(bytes) => bytes,
            Err(e) => {
                refuse(format!("unreadable: {e}"));
                continue;
            }
        };
        if bytes.is_empty() || bytes.len() % ROW != 0 {
            refuse(format!(
                "cut short: {} bytes, not a whole number of instructions ({ROW} bytes each: r0-r10 and the pc); trace the test again",
                bytes.len()
            ));
            continue;
        }
        if let Err(reason) = same_build(&file("insns"), &rows(&bytes), template) {
            refuse(reason);
            continue;
        }
        kept.push(TraceFile {
            name,
            program_id,
            path: file("regs"),
        });
    }
    if kept.is_empty() {
        let mut why: Vec<String> = others
            .iter()
            .take(3)
            .map(|(sha, n)| format!("{n} of an ELF with sha256 {sha}"))
            .collect();
        if others.len() > 3 {
            why.push(format!("and traces of {} other ELFs", others.len() - 3));
        }
        why.extend(
            refused
                .iter()
                .map(|r| format!("{}: {}", r.fixture, r.reason)),
        );
        return Err(format!(
            "TRACES={shown}: no trace of SO={} (sha256 {}): {}; give the .so your tests loaded",
            so.path.display(),
            so.sha256,
            why.join("; ")
        ));
    }
    for (sha, n) in others {
        refused.push(Refused {
            fixture: format!("{n} traces"),
            reason: format!(
                "of another program (its ELF's sha256 {sha}): a CPI's callee, or another program your tests ran; left out"
            ),
        });
    }
    Ok((kept, refused))
}

/// Whether the instructions a trace ran (`.insns`) are the `.so`'s at each
/// traced pc: a trace of another build is refused.
fn same_build(insns: &Path, regs: &[[u64; 12]], run: &VmRun) -> Result<(), String> {
    let Ok(ran) = fs::read(insns) else {
        return Err(format!(
            "no `{}` beside it: the instructions it ran cannot be checked against SO=",
            insns.display()
        ));
    };
    if ran.len() != regs.len() * ebpf::INSN_SIZE {
        return Err(format!(
            "its `.insns` holds {} bytes for {} instructions: cut short; trace the test again",
            ran.len(),
            regs.len()
        ));
    }
    for (step, (row, insn)) in regs
        .iter()
        .zip(ran.as_chunks::<{ ebpf::INSN_SIZE }>().0)
        .enumerate()
    {
        let pc = row[11] as usize;
        let ours = run
            .text
            .get(pc * ebpf::INSN_SIZE..(pc + 1) * ebpf::INSN_SIZE);
        // A call's immediate is relocated in the loaded text: compare the
        // opcode and registers, and the rest where it is no call.
        let same = ours.is_some_and(|ours| {
            ours[..2] == insn[..2] && (ours[0] == ebpf::CALL_IMM || ours[2..] == insn[2..])
        });
        if !same {
            return Err(format!(
                "a trace of another build: at step {step} (pc {pc}) it ran {insn:02x?}, SO= has {:02x?} there; give the .so the test loaded",
                ours.unwrap_or(&[])
            ));
        }
    }
    Ok(())
}

/// One invocation read with no VM.
#[derive(Clone, Debug)]
pub struct Costed {
    /// Its run and every syscall's charge, for [`benches::profile::attribute`].
    pub recorded: Recorded,
    /// Every instruction's CU and every charge: its total.
    pub cus: u64,
    /// Each syscall whose charge is not all known, and the part not known.
    pub unknown: Vec<String>,
    /// What it returned (r0 at its last `exit`), or why that is not known.
    pub result: ProgramResult,
    /// The instruction data's first bytes (up to the `data_len` asked),
    /// as far as the program read them; empty where it read none.
    pub data: Vec<u8>,
    /// The instruction data's length, where the program read it.
    pub data_length: Option<u64>,
}

/// Memory as the trace shows it: every byte a store wrote or a load read.
#[derive(Default)]
struct Shadow(HashMap<u64, u8>);

impl Shadow {
    fn set(&mut self, at: u64, value: u64, size: usize) {
        for i in 0..size {
            self.0
                .insert(at.wrapping_add(i as u64), (value >> (8 * i)) as u8);
        }
    }

    fn u64_at(&self, at: u64) -> Option<u64> {
        (0..8).try_fold(0u64, |acc, i| {
            let byte = *self.0.get(&at.wrapping_add(i))?;
            Some(acc | (u64::from(byte) << (8 * i)))
        })
    }

    /// Up to `len` bytes from `at`, as far as they are known.
    fn prefix(&self, at: u64, len: usize) -> Vec<u8> {
        (0..len as u64)
            .map_while(|i| self.0.get(&at.wrapping_add(i)).copied())
            .collect()
    }
}

/// A load's or store's size in bytes, and whether it loads.
fn memory_access(opc: u8, moved: bool) -> Option<(usize, bool, bool)> {
    // (size, load, immediate value)
    Some(match (moved, opc) {
        (true, ebpf::LD_1B_REG) | (false, ebpf::LD_B_REG) => (1, true, false),
        (true, ebpf::LD_2B_REG) | (false, ebpf::LD_H_REG) => (2, true, false),
        (true, ebpf::LD_4B_REG) | (false, ebpf::LD_W_REG) => (4, true, false),
        (true, ebpf::LD_8B_REG) | (false, ebpf::LD_DW_REG) => (8, true, false),
        (true, ebpf::ST_1B_IMM) | (false, ebpf::ST_B_IMM) => (1, false, true),
        (true, ebpf::ST_2B_IMM) | (false, ebpf::ST_H_IMM) => (2, false, true),
        (true, ebpf::ST_4B_IMM) | (false, ebpf::ST_W_IMM) => (4, false, true),
        (true, ebpf::ST_8B_IMM) | (false, ebpf::ST_DW_IMM) => (8, false, true),
        (true, ebpf::ST_1B_REG) | (false, ebpf::ST_B_REG) => (1, false, false),
        (true, ebpf::ST_2B_REG) | (false, ebpf::ST_H_REG) => (2, false, false),
        (true, ebpf::ST_4B_REG) | (false, ebpf::ST_W_REG) => (4, false, false),
        (true, ebpf::ST_8B_REG) | (false, ebpf::ST_DW_REG) => (8, false, false),
        _ => return None,
    })
}

/// The execution costs the syscalls' rules use: the default compute
/// budget's, as Mollusk and LiteSVM run.
pub fn default_costs() -> SVMTransactionExecutionCost {
    mollusk_svm::Mollusk::default().compute_budget.to_cost()
}

/// `traced`, a run of the program loaded as `template` (its text and
/// syscalls; `moved`: its version's load and store classes), charged at
/// `costs` ([`default_costs`]). `data_len`: how many bytes of
/// instruction data to read back (those that name it).
pub fn cost(
    (template, moved): (&VmRun, bool),
    traced: &Traced,
    data_len: usize,
    costs: &SVMTransactionExecutionCost,
) -> Costed {
    let text = &template.text;
    let mut shadow = Shadow::default();
    let mut charges = Vec::new();
    let mut unknown = Vec::new();
    let mut heap_end = 0u64;
    let regs = &traced.regs;
    // The instruction data's address: r2 on entry (SIMD-0321), where the
    // loader passes it.
    let data_at = regs
        .first()
        .map(|r| r[2])
        .filter(|&at| at >= ebpf::MM_INPUT_START);
    // Memory is shadowed only where a charge reads it (a syscall whose
    // rule reads memory) and where the instruction data's first bytes lie.
    let insn_at = |row: &[u64; 12]| {
        let pc = row[11] as usize;
        text.get(pc * ebpf::INSN_SIZE..(pc + 1) * ebpf::INSN_SIZE)
            .map(|bytes| ebpf::get_insn_unchecked(bytes, 0))
    };
    let reads_memory = regs.iter().filter_map(insn_at).any(|insn| {
        insn.opc == ebpf::CALL_IMM
            && (!template.static_syscalls || insn.src == 0)
            && template
                .syscalls
                .get(&(insn.imm as u32))
                .is_some_and(|name| MEMORY_RULES.contains(&name.as_str()))
    });
    // The data's length (the u64 before it) and its first bytes.
    let data_bytes = data_at.map(|at| at - 8..at.saturating_add(data_len as u64));
    for (step, row) in regs.iter().enumerate() {
        let pc = row[11] as usize;
        let Some(insn) = insn_at(row) else {
            continue;
        };
        if let Some((size, load, immediate)) = memory_access(insn.opc, moved) {
            let (base, value) = if load {
                let next = regs.get(step + 1).map(|next| next[insn.dst as usize]);
                (row[insn.src as usize], next)
            } else if immediate {
                (row[insn.dst as usize], Some(insn.imm as u64))
            } else {
                (row[insn.dst as usize], Some(row[insn.src as usize]))
            };
            let at = base.wrapping_add(insn.off as i64 as u64);
            if (ebpf::MM_HEAP_START..ebpf::MM_HEAP_START + (1 << 32)).contains(&at) {
                heap_end = heap_end.max(at - ebpf::MM_HEAP_START + size as u64);
            }
            let shown = reads_memory
                || data_bytes
                    .as_ref()
                    .is_some_and(|bytes| at < bytes.end && at + size as u64 > bytes.start);
            if let (true, Some(value)) = (shown, value) {
                shadow.set(at, value, size);
            }
            continue;
        }
        if insn.opc != ebpf::CALL_IMM || (template.static_syscalls && insn.src != 0) {
            continue;
        }
        let Some(name) = template.syscalls.get(&(insn.imm as u32)) else {
            continue;
        };
        let after = regs.get(step + 1);
        match charge(name, row, after, &shadow, costs) {
            Ok(cus) => charges.push(cus),
            Err((known, why)) => {
                charges.push(known);
                unknown.push(format!("`{name}` at pc {pc}: {why}"));
            }
        }
    }
    let last = regs.last().map(|row| {
        let pc = row[11] as usize;
        let exit = text
            .get(pc * ebpf::INSN_SIZE..(pc + 1) * ebpf::INSN_SIZE)
            .map(|b| ebpf::get_insn_unchecked(b, 0).opc == ebpf::EXIT);
        (exit == Some(true), row[0], pc)
    });
    let result = match last {
        Some((true, 0, _)) => ProgramResult::Success,
        Some((true, code, _)) => ProgramResult::Failure(ProgramError::from(code)),
        Some((false, _, pc)) => {
            unknown.push(format!(
                "it ended at pc {pc} without returning (a fault, or a syscall that aborts): what ended it is not in the trace"
            ));
            ProgramResult::UnknownError(
                solana_instruction::error::InstructionError::ProgramFailedToComplete,
            )
        }
        None => ProgramResult::Success,
    };
    // Only the bytes within the data's length, where the program read
    // it: past it lie the program id's.
    let data_length = data_at.and_then(|at| {
        let bytes: [u8; 8] = shadow.prefix(at - 8, 8).try_into().ok()?;
        Some(u64::from_le_bytes(bytes))
    });
    let data = data_at
        .map(|at| {
            let mut bytes = shadow.prefix(at, data_len);
            if let Some(len) = data_length {
                bytes.truncate(usize::try_from(len).unwrap_or(usize::MAX));
            }
            bytes
        })
        .unwrap_or_default();
    // A heap frame is charged by the loader before the VM runs, by the
    // size the transaction requested (`HEAP=`, else the default): the
    // trace shows only how far the program reached into it.
    let mut run = VmRun {
        trace: regs.clone(),
        program_id: traced.program_id,
        ..template.clone()
    };
    if heap_end > u64::from(template.heap_bytes) {
        let reached = heap_end.next_multiple_of(1024) as u32;
        run.heap_bytes = reached;
        run.heap_cus = solana_program_runtime::vm::calculate_heap_cost(reached, costs.heap_cost);
        unknown.push(format!(
            "it reached byte {heap_end} of its heap, past the {} KiB frame given (HEAP=): the loader charges the frame the transaction requested, which the trace does not show; charged here for the {} KiB reached",
            template.heap_bytes / 1024,
            reached / 1024
        ));
    }
    let cus = regs.len() as u64 + charges.iter().sum::<u64>() + run.heap_cus;
    Costed {
        recorded: Recorded {
            runs: vec![run],
            charges: charges
                .into_iter()
                .map(|cus| Charge {
                    index_in_trace: 0,
                    cus,
                    callee: None,
                })
                .collect(),
        },
        cus,
        unknown,
        result,
        data,
        data_length,
    }
}

/// The syscalls whose rule here reads memory (the shadow's).
const MEMORY_RULES: [&str; 1] = ["sol_log_data"];

/// A syscall's charge by agave's rule for it; `Err` with the part known
/// and what is not, where its charge depends on what the trace does not
/// show. `row`: the registers at the call; `after`: at the next step.
fn charge(
    name: &str,
    row: &[u64; 12],
    after: Option<&[u64; 12]>,
    shadow: &Shadow,
    costs: &SVMTransactionExecutionCost,
) -> Result<u64, (u64, String)> {
    let base = costs.syscall_base_cost;
    let per_unit = costs.cpi_bytes_per_unit.max(1);
    let (r1, r2, r3, r4) = (row[1], row[2], row[3], row[4]);
    Ok(match name {
        "sol_log_" => base.max(r2),
        "sol_log_64_" => costs.log_64_units,
        "sol_log_pubkey" => costs.log_pubkey_units,
        "sol_log_compute_units_"
        | "sol_get_stack_height"
        | "sol_remaining_compute_units"
        | "sol_get_processed_sibling_instruction" => base,
        "sol_memcpy_" | "sol_memmove_" | "sol_memset_" | "sol_memcmp_" => {
            costs.mem_op_base_cost.max(r3 / per_unit)
        }
        "sol_set_return_data" => r2 / per_unit + base,
        "sol_get_return_data" => {
            // r0 after the call: the return data's length.
            let Some(held) = after.map(|a| a[0]) else {
                return Err((base, "the call ended the trace".into()));
            };
            let length = r2.min(held);
            base + if length == 0 {
                0
            } else {
                (length + 32) / per_unit
            }
        }
        "sol_log_data" => {
            let fields = r2;
            let mut total = base + base.saturating_mul(fields);
            for i in 0..fields {
                match shadow.u64_at(r1.wrapping_add(16 * i + 8)) {
                    Some(len) => total += len,
                    None => {
                        return Err((
                            total,
                            format!(
                                "the length of field {i} of {fields} (in memory no instruction the trace ran wrote or read)"
                            ),
                        ));
                    }
                }
            }
            total
        }
        "sol_get_sysvar" => {
            costs.sysvar_base_cost + 32 / per_unit + costs.mem_op_base_cost.max(r4 / per_unit)
        }
        "sol_panic_" => r2,
        "abort" | "sol_alloc_free_" => 0,
        "sol_create_program_address" => costs.create_program_address_units,
        "sol_invoke_signed_c" | "sol_invoke_signed_rust" => {
            return Err((
                0,
                "a CPI: its charge holds the callee's CUs and the accounts' bytes, which this trace does not show (the callee's invocation is a trace of its own)".into(),
            ));
        }
        "sol_try_find_program_address" => {
            return Err((
                0,
                "a PDA search: its charge counts the bumps it tried, which the trace does not show"
                    .into(),
            ));
        }
        other => {
            let _ = (r1, r3);
            return Err((0, format!("no cost rule here for `{other}`")));
        }
    })
}

/// `make profile SO= TRACES=`: every traced invocation of the `.so`,
/// charged ([`cost`]) and profiled as a fixture's call is; one whose
/// total is not exact says which syscall's charge is not known, in place
/// of a fixture's replay.
pub fn run(options: &Options, dir: &Path) -> Result<Run, String> {
    let so = elf::read(&options.so)?;
    let (template, moved) = benches::vm::loaded_run(&Pubkey::default(), &so.elf).map_err(|e| {
        format!(
            "SO={}: the loader refused it: {e}; give the .so that cargo build-sbf or anchor build writes",
            so.path.display()
        )
    })?;
    let (mut template, moved) = (template, moved);
    let costs = default_costs();
    if let Some(bytes) = options.heap {
        template.heap_bytes = bytes;
        template.heap_cus = solana_program_runtime::vm::calculate_heap_cost(bytes, costs.heap_cost);
    }
    let (files, refused) = load_dir(dir, &so, &template)?;
    let names = match &options.idl {
        Some(path) => Some(idl_for_traces(path, &files)?),
        None => None,
    };
    // The bytes read back: enough for the discriminator and for the
    // IDL's longest.
    let data_len = names
        .iter()
        .flat_map(|n| n.instructions.iter().map(|(d, _)| d.len()))
        .chain([options.discriminator])
        .max()
        .unwrap_or(options.discriminator);
    // Named as a fixture's first call names it: from a run with its trace
    // (its entry, and what it entered by `callx`).
    let first = VmRun {
        trace: files[0].load()?.regs,
        ..template.clone()
    };
    let (symbols, naming) = elf::naming(&so, &first);
    let label = so.name.clone();
    let named = |_: &Pubkey| {
        Some(Named {
            label: label.clone(),
            symbols: symbols.as_ref(),
        })
    };
    let mut profiled = Vec::new();
    let mut any_named = false;
    for file in &files {
        let invocation = file.load()?;
        let costed = cost((&template, moved), &invocation, data_len, &costs);
        let profile = attribute(&costed.recorded, costed.cus, &named)
            .map_err(|e| format!("{}: profiling it: {e}", invocation.name))?;
        let named = names.as_ref().and_then(|n| n.instruction(&costed.data));
        let instruction = match (named, costed.data.get(..options.discriminator)) {
            (Some(name), _) => name.to_string(),
            (None, Some(bytes)) if !bytes.is_empty() => {
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                format!("0x{hex}")
            }
            // As a fixture's call with no data is named.
            _ if costed.data_length == Some(0) => "(no data)".to_string(),
            _ => "(instruction data not read)".to_string(),
        };
        any_named |= named.is_some();
        let result = InstructionResult {
            compute_units_consumed: costed.cus,
            program_result: costed.result.clone(),
            ..InstructionResult::default()
        };
        profiled.push(Profiled {
            fixture: invocation.name.clone(),
            instruction,
            accounts: Vec::new(),
            cus: costed.cus,
            error: crate::replay::error(&result),
            replayed: match costed.unknown.is_empty() {
                true => Ok(()),
                false => Err(format!(
                    "not exact, {} CUs at least: {}",
                    costed.cus,
                    costed.unknown.join("; ")
                )),
            },
            outcome_recorded: true,
            result,
            profile,
        });
    }
    if let (Some(names), false) = (&names, any_named || profiled.is_empty()) {
        return Err(format!(
            "IDL={}: no traced invocation read instruction data starting with one of its {} instructions' discriminators: an IDL for another program? give the IDL of the program the traces ran",
            options.idl.as_ref().expect("names come from it").display(),
            names.instructions.len()
        ));
    }
    let moves = names.as_ref().map(|names| {
        let path = options.idl_runs.join(&names.program).join("results.json");
        let moves = crate::moves::read(&path);
        (path, moves)
    });
    Ok(Run {
        so,
        naming,
        profiled,
        refused,
        idl: names,
        moves,
        traces: true,
    })
}

/// The IDL at `path`, checked to be the traced program's: its address,
/// where it has one, is every trace's program id.
fn idl_for_traces(path: &Path, files: &[TraceFile]) -> Result<crate::idl::Names, String> {
    let names = crate::idl::read(path)?;
    if let Some(address) = &names.address
        && let Some(other) = files.iter().find(|f| f.program_id.to_string() != *address)
    {
        return Err(format!(
            "IDL={}: its address is {address}, the traces ran program {}: an IDL for another program? give the IDL of the program the traces ran",
            path.display(),
            other.program_id
        ));
    }
    Ok(names)
}
