//! Mollusk's instruction fixture (mollusk-svm-fuzz-fixture 0.16's
//! `InstrFixture`, in the JSON its serde derive reads), built from what
//! LiteSVM ran: `profile-so --fixtures` and `make profile SO= FIXTURES=`
//! load these files as they load the ones Mollusk writes.

use serde::Serialize;
use serde_json::{Map, Value};
use solana_account::{AccountSharedData, ReadableAccount};
use solana_address::Address;
use solana_program_runtime::{
    execution_budget::{SVMTransactionExecutionBudget, SVMTransactionExecutionCost},
    sysvar_cache::SysvarCache,
};

/// One instruction: what it was given and what it left.
#[derive(Serialize)]
pub struct Fixture {
    pub input: Context,
    pub output: Effects,
}

#[derive(Serialize)]
pub struct Context {
    pub compute_budget: Value,
    pub feature_set: FeatureSet,
    pub sysvars: Value,
    pub program_id: Vec<u8>,
    pub instr_accounts: Vec<InstructionAccount>,
    pub data: Vec<u8>,
    pub accounts: Vec<AccountState>,
}

/// The features active: each the first 8 bytes of its id, little-endian.
#[derive(Serialize)]
pub struct FeatureSet {
    pub features: Vec<u64>,
}

/// An account of the instruction: its index in `accounts`.
#[derive(Serialize)]
pub struct InstructionAccount {
    pub index: u32,
    pub is_signer: bool,
    pub is_writable: bool,
}

#[derive(Clone, Serialize, PartialEq, Eq, Debug)]
pub struct AccountState {
    pub address: Vec<u8>,
    pub lamports: u64,
    pub data: Vec<u8>,
    pub executable: bool,
    pub rent_epoch: u64,
    pub owner: Vec<u8>,
}

impl AccountState {
    pub fn new(address: &Address, account: &AccountSharedData) -> Self {
        Self {
            address: address.to_bytes().to_vec(),
            lamports: account.lamports(),
            data: account.data().to_vec(),
            executable: account.executable(),
            rent_epoch: account.rent_epoch(),
            owner: account.owner().to_bytes().to_vec(),
        }
    }
}

#[derive(Serialize)]
pub struct Effects {
    pub compute_units_consumed: u64,
    pub execution_time: u64,
    /// 0 for success, else the program error's code (`u64::from(ProgramError)`).
    pub program_result: u64,
    pub return_data: Vec<u8>,
    pub resulting_accounts: Vec<AccountState>,
}

/// The fixture's compute budget: the transaction's budget and costs as
/// LiteSVM ran it, with `compute_unit_limit` what was left when the
/// instruction began.
pub fn compute_budget(
    budget: &SVMTransactionExecutionBudget,
    cost: &SVMTransactionExecutionCost,
    compute_unit_limit: u64,
) -> Value {
    let mut fields = Map::new();
    let mut put = |name: &str, value: u64| {
        fields.insert(name.to_string(), Value::from(value));
    };
    put("compute_unit_limit", compute_unit_limit);
    put(
        "max_instruction_stack_depth",
        budget.max_instruction_stack_depth as u64,
    );
    put(
        "max_instruction_trace_length",
        budget.max_instruction_trace_length as u64,
    );
    put("sha256_max_slices", budget.sha256_max_slices);
    put("max_call_depth", budget.max_call_depth as u64);
    put("stack_frame_size", budget.stack_frame_size as u64);
    put("heap_size", u64::from(budget.heap_size));
    // Every cost, by the name both the runtime and the fixture give it.
    macro_rules! costs {
        ($($name:ident),* $(,)?) => {
            $(put(stringify!($name), cost.$name);)*
        };
    }
    costs!(
        log_64_units,
        create_program_address_units,
        invoke_units,
        sha256_base_cost,
        sha256_byte_cost,
        log_pubkey_units,
        cpi_bytes_per_unit,
        sysvar_base_cost,
        secp256k1_recover_cost,
        syscall_base_cost,
        curve25519_edwards_validate_point_cost,
        curve25519_edwards_add_cost,
        curve25519_edwards_subtract_cost,
        curve25519_edwards_multiply_cost,
        curve25519_edwards_msm_base_cost,
        curve25519_edwards_msm_incremental_cost,
        curve25519_ristretto_validate_point_cost,
        curve25519_ristretto_add_cost,
        curve25519_ristretto_subtract_cost,
        curve25519_ristretto_multiply_cost,
        curve25519_ristretto_msm_base_cost,
        curve25519_ristretto_msm_incremental_cost,
        heap_cost,
        mem_op_base_cost,
        alt_bn128_pairing_one_pair_cost_first,
        alt_bn128_pairing_one_pair_cost_other,
        poseidon_cost_coefficient_a,
        poseidon_cost_coefficient_c,
        get_remaining_compute_units_cost,
        alt_bn128_g1_compress,
        alt_bn128_g1_decompress,
        alt_bn128_g2_compress,
        alt_bn128_g2_decompress,
        alt_bn128_g1_addition_cost,
        alt_bn128_g2_addition_cost,
        alt_bn128_g1_multiplication_cost,
        alt_bn128_g2_multiplication_cost,
        bls12_381_g1_add_cost,
        bls12_381_g2_add_cost,
        bls12_381_g1_subtract_cost,
        bls12_381_g2_subtract_cost,
        bls12_381_g1_multiply_cost,
        bls12_381_g2_multiply_cost,
        bls12_381_g1_decompress_cost,
        bls12_381_g2_decompress_cost,
        bls12_381_g1_validate_cost,
        bls12_381_g2_validate_cost,
        bls12_381_one_pair_cost,
        bls12_381_additional_pair_cost,
        big_modular_exponentiation_base_cost,
        big_modular_exponentiation_cost_divisor,
    );
    Value::Object(fields)
}

/// The sysvars the transaction ran with, from its sysvar cache; an error
/// names one the cache does not hold (the fixture needs each).
#[allow(deprecated)]
pub fn sysvars(cache: &SysvarCache) -> Result<Value, String> {
    fn missing<E>(name: &'static str) -> impl Fn(E) -> String {
        move |_| format!("LiteSVM's sysvar cache has no {name}")
    }
    let clock = cache.get_clock().map_err(missing("Clock"))?;
    let rewards = cache.get_epoch_rewards().map_err(missing("EpochRewards"))?;
    let schedule = cache
        .get_epoch_schedule()
        .map_err(missing("EpochSchedule"))?;
    let rent = cache.get_rent().map_err(missing("Rent"))?;
    let slot_hashes = cache.get_slot_hashes().map_err(missing("SlotHashes"))?;
    let stake_history = cache.get_stake_history().map_err(missing("StakeHistory"))?;
    // Deprecated and often absent: an empty list, as Mollusk's default.
    let recent: Vec<Value> = cache
        .get_recent_blockhashes()
        .map(|r| {
            r.iter()
                .map(|entry| {
                    serde_json::json!({
                        "blockhash": entry.blockhash.to_bytes().to_vec(),
                        "lamports_per_signature": entry.fee_calculator.lamports_per_signature,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(serde_json::json!({
        "clock": {
            "slot": clock.slot,
            "epoch_start_timestamp": clock.epoch_start_timestamp,
            "epoch": clock.epoch,
            "leader_schedule_epoch": clock.leader_schedule_epoch,
            "unix_timestamp": clock.unix_timestamp,
        },
        "epoch_rewards": {
            "distribution_starting_block_height": rewards.distribution_starting_block_height,
            "num_partitions": rewards.num_partitions,
            "parent_blockhash": rewards.parent_blockhash.to_bytes().to_vec(),
            "total_points": rewards.total_points.to_le_bytes().to_vec(),
            "total_rewards": rewards.total_rewards,
            "distributed_rewards": rewards.distributed_rewards,
            "active": rewards.active,
        },
        "epoch_schedule": {
            "slots_per_epoch": schedule.slots_per_epoch,
            "leader_schedule_slot_offset": schedule.leader_schedule_slot_offset,
            "warmup": schedule.warmup,
            "first_normal_epoch": schedule.first_normal_epoch,
            "first_normal_slot": schedule.first_normal_slot,
        },
        "rent": {
            "lamports_per_byte_year": rent.lamports_per_byte,
            "exemption_threshold": f64::from_le_bytes(rent.exemption_threshold),
            "burn_percent": rent.burn_percent,
        },
        "slot_hashes": {
            "slot_hashes": slot_hashes
                .slot_hashes()
                .iter()
                .map(|(slot, hash)| serde_json::json!({"slot": slot, "hash": hash.to_bytes().to_vec()}))
                .collect::<Vec<_>>(),
        },
        "stake_history": {
            "stake_history": stake_history
                .iter()
                .map(|(epoch, entry)| serde_json::json!({
                    "epoch": epoch,
                    "effective": entry.effective,
                    "activating": entry.activating,
                    "deactivating": entry.deactivating,
                }))
                .collect::<Vec<_>>(),
        },
        "recent_blockhashes": { "entries": recent },
    }))
}
