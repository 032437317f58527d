//! The traced pass (`benches::trace`) on real programs: tracing changes no
//! CU, and the no-op floor, which allocates nothing and calls nothing,
//! has no heap and one frame.

use benches::{Family, Workspace, families::cases};

#[test]
fn tracing_changes_no_cu_and_the_floor_uses_no_heap() {
    let workspace = Workspace::current();
    let programs = workspace.programs().unwrap_or_else(|e| panic!("{e}"));
    for family in Family::ALL {
        let mut group: Vec<_> = programs
            .iter()
            .filter(|p| p.family == family)
            .cloned()
            .collect();
        if family == Family::Token {
            group.extend(workspace.floor());
        }
        let elfs: Vec<Vec<u8>> = group
            .iter()
            .map(|p| workspace.elf(p).unwrap_or_else(|e| panic!("{e}")))
            .collect();
        let plain = workspace.mollusk_with(&group, &elfs).unwrap();
        let (traced, tracer) = workspace.traced_mollusk(&group, &elfs).unwrap();
        for case in cases(&group).unwrap_or_else(|e| panic!("{e}")) {
            let untraced = plain.process_instruction(&case.instruction, &case.accounts);
            let result = traced.process_instruction(&case.instruction, &case.accounts);
            assert_eq!(
                result.compute_units_consumed,
                untraced.compute_units_consumed,
                "{}",
                case.name()
            );
            let footprints = tracer.take();
            assert_eq!(footprints.len(), 1, "{}", case.name());
            let footprint = footprints[0];
            // Every instruction costs one CU; syscalls cost more.
            assert!(
                footprint.instructions <= result.compute_units_consumed,
                "{}",
                case.name()
            );
            assert!(footprint.call_depth >= 1, "{}", case.name());
            assert!(footprint.stack_bytes <= 4096, "{}", case.name());
            if case.program.ends_with("noop") {
                assert_eq!(footprint.heap_bytes, 0, "{}", case.name());
                assert_eq!(footprint.call_depth, 1, "{}", case.name());
            }
        }
    }
}
