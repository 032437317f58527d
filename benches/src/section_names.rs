//! One function on its own file, so that the LiteSVM replay (a workspace
//! of its own) compiles the same bytes (`#[path]`): the section names a
//! tracing loader needs.

/// A copy of `elf` that a tracing loader accepts. Mollusk turns on symbol
/// labels with register tracing, and solana-sbpf 0.23.0 then panics
/// (`elf.rs`, an `unwrap` on the section name table) on an ELF without
/// section headers, which is what sbpf-linker writes for sBPF v3. The copy
/// has two section headers appended, the null one and an empty
/// `.shstrtab`; nothing the loader maps changes (the program headers, text
/// and read-only data are the same bytes), and the tests hold every traced
/// CU equal to the untraced run's. An ELF with section headers is returned
/// as it is.
pub fn with_section_names(elf: &[u8]) -> Vec<u8> {
    const SHOFF: usize = 0x28;
    const SHENTSIZE: usize = 0x3a;
    const SHDR: usize = 64;
    let field = |at: usize| u16::from_le_bytes([elf[at], elf[at + 1]]);
    if elf.len() < 0x40 || field(SHENTSIZE + 2) != 0 {
        return elf.to_vec();
    }
    let names = b"\0.shstrtab\0";
    let mut out = elf.to_vec();
    let names_at = out.len();
    out.extend_from_slice(names);
    out.resize(out.len().next_multiple_of(8), 0);
    let headers_at = out.len();
    out.extend_from_slice(&[0; SHDR]);
    let mut shstrtab = [0u8; SHDR];
    shstrtab[0..4].copy_from_slice(&1u32.to_le_bytes()); // sh_name: ".shstrtab"
    shstrtab[4..8].copy_from_slice(&3u32.to_le_bytes()); // sh_type: SHT_STRTAB
    shstrtab[24..32].copy_from_slice(&(names_at as u64).to_le_bytes());
    shstrtab[32..40].copy_from_slice(&(names.len() as u64).to_le_bytes());
    shstrtab[48..56].copy_from_slice(&1u64.to_le_bytes()); // sh_addralign
    out.extend_from_slice(&shstrtab);
    out[SHOFF..SHOFF + 8].copy_from_slice(&(headers_at as u64).to_le_bytes());
    out[SHENTSIZE..SHENTSIZE + 2].copy_from_slice(&(SHDR as u16).to_le_bytes());
    out[SHENTSIZE + 2..SHENTSIZE + 4].copy_from_slice(&2u16.to_le_bytes()); // e_shnum
    out[SHENTSIZE + 4..SHENTSIZE + 6].copy_from_slice(&1u16.to_le_bytes()); // e_shstrndx
    out
}
