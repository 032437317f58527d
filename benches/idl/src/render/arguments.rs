//! The instruction-argument programs: one crate per format holding every
//! instruction's handler behind the framework's dispatch (an 8-byte compare
//! for Anchor, one byte for Shank), as a real program holds them. Each
//! handler decodes and validates its arguments, then stores the chosen one
//! in account [0] (`common::idl::arguments`).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::{
    ArgumentCodec, ArgumentFormat, RowFormat, Walk, aligned_types, camel, codama_helpers,
    field_expr, ident, owned_types, reachable, snake, unparse, walk_helpers, walk_to, walker,
};
use crate::{
    layout::struct_layout,
    model::{Instruction, Scalar, Struct, Ty},
    value::FieldPath,
};

/// One instruction as a handler: the model, and the argument it stores.
#[derive(Clone, Debug)]
pub struct Handler<'a> {
    pub instruction: &'a Instruction,
    /// Whether the program's format decodes it; where not (variable-size
    /// arguments in the bytemuck program) it is walked, so that the
    /// program still holds every instruction and its dispatch is the
    /// others', but it has no row.
    pub measured: bool,
    /// The stored argument (`None` where no argument is a scalar or pubkey:
    /// the handler decodes and stores nothing).
    pub store: Option<FieldPath<Scalar>>,
}

/// Whether `format` can decode `instruction`'s arguments, or why not.
pub fn fits(format: ArgumentFormat, instruction: &Instruction) -> Result<(), String> {
    match format {
        ArgumentFormat::Pinocchio(ArgumentCodec::Bytemuck) => {
            struct_layout(&instruction.args, true)
                .map(|_| ())
                .map_err(|e| format!("not every argument is fixed-size: {e}"))
        }
        // Anchor 1.x decodes the arguments with borsh.
        ArgumentFormat::Pinocchio(ArgumentCodec::Borsh) | ArgumentFormat::Anchor1 => {
            super::borsh_bytes(&Ty::Struct(instruction.args.clone()))
                .map_err(|e| format!("not borsh's bytes: {e}"))
        }
        ArgumentFormat::Pinocchio(ArgumentCodec::Wincode) => {
            super::wincode_config(&Ty::Struct(instruction.args.clone()))
                .map(|_| ())
                .map_err(|e| format!("no wincode configuration holds these bytes: {e}"))
        }
        ArgumentFormat::Pinocchio(ArgumentCodec::Floor | ArgumentCodec::Walk) => Ok(()),
    }
}

/// The handler's function name: the instruction's, in snake_case, unless
/// that is a name the generated file already uses.
fn handler_name(instruction: &Instruction) -> proc_macro2::Ident {
    let name = &instruction.ident;
    let taken = ["skip", "count", "store", "run", "invalid_instruction_data"];
    if taken.contains(&name.as_str())
        || ["walk_", "skip_", "valid_"]
            .iter()
            .any(|p| name.starts_with(p))
    {
        format_ident!("{name}_instruction")
    } else {
        crate::names::value_token(name)
    }
}

/// Whether the linker's or compiler's words (`reason`) name `instruction`'s
/// handler or arguments type: where a refused frame lies.
pub fn named_in(instruction: &Instruction, reason: &str) -> bool {
    let handler = handler_name(instruction).to_string();
    let args = ident(&instruction.args.ident, true).to_string();
    reason.contains(&format!("`{handler}`"))
        || reason.contains(&format!("::{handler}`"))
        || reason.contains(&args)
}

/// `bytes` as the dispatch compares them: little-endian, zero extended
/// to a `u64`, written in hex.
fn discriminator(bytes: &[u8]) -> TokenStream {
    let mut wide = [0u8; 8];
    wide[..bytes.len()].copy_from_slice(bytes);
    format!("{:#018x}", u64::from_le_bytes(wide))
        .parse()
        .expect("a hex literal")
}

/// The dispatch's arms on the first `len` bytes, and a second dispatch
/// for each group of instructions whose discriminators are longer and
/// start alike (the model checked that each group's are one length and
/// that no instruction's whole discriminator starts a group).
fn dispatch(handlers: &[Handler], len: usize) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut arms = Vec::new();
    let mut groups: std::collections::BTreeMap<&[u8], Vec<&Handler>> = Default::default();
    for h in handlers {
        let bytes = &h.instruction.discriminator;
        if bytes.len() == len {
            let value = discriminator(bytes);
            let handler = handler_name(h.instruction);
            arms.push(quote!(#value => #handler(data, out),));
        } else {
            groups.entry(&bytes[..len]).or_default().push(h);
        }
    }
    let mut nested = Vec::new();
    for (prefix, members) in groups {
        let value = discriminator(prefix);
        let hex: String = prefix.iter().map(|b| format!("{b:02x}")).collect();
        let function = format_ident!("dispatch_{hex}");
        let rest = members[0].instruction.discriminator.len() - len;
        let rest_len = Literal::usize_unsuffixed(rest);
        let doc = format!(
            " The instructions whose discriminators start with `{hex}`: the next {rest} byte(s) select one."
        );
        let member_arms = members.iter().map(|h| {
            let tail = h.instruction.discriminator[len..]
                .iter()
                .map(|b| Literal::u8_unsuffixed(*b));
            let handler = handler_name(h.instruction);
            quote!([#(#tail),*] => #handler(data, out),)
        });
        arms.push(quote!(#value => #function(data, out),));
        nested.push(quote! {
            #[doc = #doc]
            #[inline(always)]
            fn #function(data: &[u8], out: &mut [u8]) -> ProgramResult {
                let (tag, data) = data
                    .split_at_checked(#rest_len)
                    .ok_or(ProgramError::InvalidInstructionData)?;
                match tag {
                    #(#member_arms)*
                    _ => Err(ProgramError::InvalidInstructionData),
                }
            }
        });
    }
    (arms, nested)
}

/// Where the handlers' code goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Where the compiler puts it (inlined into the dispatch, one
    /// `entrypoint`): the program measured.
    AsCompiled,
    /// Each handler a function of its own (`#[inline(never)]`): never
    /// measured, built only so that a linker that refuses a stack frame
    /// names the handler it is in ([`crate::generate::frames_refused`]).
    OutOfLine,
}

/// The crate's `src/lib.rs`: every handler in `format` behind one dispatch.
pub fn program(program: &str, source: &str, handlers: &[Handler], format: ArgumentCodec) -> String {
    placed(program, source, handlers, format, Placement::AsCompiled)
}

/// [`program`], its handlers placed as `placement` says.
pub fn placed(
    program: &str,
    source: &str,
    handlers: &[Handler],
    format: ArgumentCodec,
    placement: Placement,
) -> String {
    let doc = format!(
        " Every instruction's arguments of `{program}` ({source}), with {}. Generated by `make idl` from the IDL; see docs/idl.md.",
        describe(format)
    );
    // The dispatch reads the shortest discriminator; an instruction with a
    // longer one (an extension's byte, then its own) is selected by a
    // second dispatch on the bytes after it.
    let discriminator_len = handlers
        .iter()
        .map(|h| h.instruction.discriminator.len())
        .min()
        .unwrap_or(8);
    let (arms, nested) = dispatch(handlers, discriminator_len);
    let discriminator_len = Literal::usize_unsuffixed(discriminator_len);
    let roots: Vec<&Struct> = handlers
        .iter()
        .filter(|h| h.measured && !h.instruction.args.fields.is_empty())
        .map(|h| &h.instruction.args)
        .collect();
    let walked: Vec<&Struct> = handlers
        .iter()
        .filter(|h| !h.instruction.args.fields.is_empty())
        .filter(|h| format == ArgumentCodec::Walk || !h.measured)
        .map(|h| &h.instruction.args)
        .collect();
    let cast: Vec<&Struct> = handlers
        .iter()
        .filter(|h| h.measured && !h.instruction.args.fields.is_empty())
        .map(|h| &h.instruction.args)
        .collect();
    let types = match format {
        ArgumentCodec::Borsh | ArgumentCodec::Wincode => {
            let owned = owned_types(&roots, format.serializer());
            let walkers = walkers(&walked);
            // The configurations the handlers' bytes need, once each.
            let configs: std::collections::BTreeSet<(u8, u8)> = match format {
                ArgumentCodec::Wincode => roots
                    .iter()
                    .map(|r| {
                        super::wincode_config(&Ty::Struct((*r).clone())).expect("checked by fits")
                    })
                    .collect(),
                _ => Default::default(),
            };
            let configs = configs.into_iter().map(super::wincode_config_item);
            quote!(#(#configs)* #owned #walkers)
        }
        ArgumentCodec::Bytemuck => {
            let aligned = aligned_types(&cast, true);
            let walkers = walkers(&walked);
            quote!(#aligned #walkers)
        }
        ArgumentCodec::Walk => walkers(&walked),
        ArgumentCodec::Floor => quote!(),
    };
    let out_of_line = (placement == Placement::OutOfLine).then(|| quote!(#[inline(never)]));
    let functions = handlers.iter().map(|h| {
        let handler = if h.measured {
            handler(h, format)
        } else {
            handler(h, ArgumentCodec::Walk)
        };
        quote!(#out_of_line #handler)
    });
    let format_ident = format_ident!("{}", camel(RowFormat::from(format).name()));
    let owned = matches!(format, ArgumentCodec::Borsh | ArgumentCodec::Wincode);
    let alloc = owned.then(|| {
        quote!(
            extern crate alloc;
        )
    });
    let decode_error = owned.then(|| quote!(invalid_instruction_data,));
    let file = quote! {
        #![doc = #doc]
        #![no_std]
        #alloc

        use common::{
            ProgramError, ProgramResult,
            idl::arguments::{Arguments, #decode_error store},
        };

        #types

        struct #format_ident;

        impl Arguments for #format_ident {
            const DISCRIMINATOR_LEN: usize = #discriminator_len;

            fn run(discriminator: u64, data: &[u8], out: &mut [u8]) -> ProgramResult {
                match discriminator {
                    #(#arms)*
                    _ => Err(ProgramError::InvalidInstructionData),
                }
            }
        }

        #(#nested)*

        #(#functions)*

        common::idl_arguments_program!(#format_ident);
    };
    unparse(file)
}

/// The walk's functions for every struct and enum reachable from `roots`
/// (nothing where there are none).
fn walkers(roots: &[&Struct]) -> TokenStream {
    if roots.is_empty() {
        return quote!();
    }
    let types = reachable(roots);
    let mut walkers = Vec::new();
    for mode in [Walk::Validate, Walk::Skip] {
        for named in types.values() {
            walkers.push(walker(*named, mode));
        }
    }
    walkers.push(codama_helpers(types.values().copied()));
    walk_helpers(&walkers, quote!(ProgramError::InvalidInstructionData))
}

fn describe(format: ArgumentCodec) -> &'static str {
    match format {
        ArgumentCodec::Floor => {
            "no decode: the same dispatch and store as the other formats, the stored bytes taken from the arguments' first bytes as they came (the floor)"
        }
        ArgumentCodec::Borsh => {
            "borsh, as Anchor 1.x decodes them: `deserialize` of the arguments struct after the discriminator, owned (bytes after it accepted)"
        }
        ArgumentCodec::Wincode => {
            "wincode reading borsh's bytes, as Anchor 2 decodes them: `wincode::config::deserialize` of the arguments struct, owned (bytes after it accepted)"
        }
        ArgumentCodec::Walk => {
            "no crate: generated code that walks borsh's bytes in place, validating every length, tag, bool and UTF-8 string, then reads the stored argument where it lies"
        }
        ArgumentCodec::Bytemuck => {
            "bytemuck: the arguments (all fixed-size) as one alignment-1 `Pod` struct cast from the data, as token-2022 reads its instruction data; bools and enum tags checked. Instructions with variable-size arguments are walked in place (no row), so the dispatch holds every instruction"
        }
    }
}

/// One instruction's handler in `format`.
fn handler(h: &Handler, format: ArgumentCodec) -> TokenStream {
    let ix = h.instruction;
    let name = handler_name(ix);
    let args = &ix.args;
    let doc = format!(" `{}`.", ix.name);
    let args_ty = ident(&args.ident, true);
    let body = if args.fields.is_empty() {
        // Nothing to decode in any format.
        quote! {
            let _ = (data, out);
            Ok(())
        }
    } else {
        let stored = h.store.as_ref();
        match format {
            ArgumentCodec::Floor => match stored {
                Some(path) => {
                    let len = Literal::usize_unsuffixed(path.ty.width());
                    quote! {
                        store(out, data.get(..#len).ok_or(ProgramError::InvalidInstructionData)?)
                    }
                }
                None => quote! {
                    let _ = (data, out);
                    Ok(())
                },
            },
            ArgumentCodec::Borsh | ArgumentCodec::Wincode => {
                let decode = if format == ArgumentCodec::Borsh {
                    quote! {
                        let args = <#args_ty as borsh::BorshDeserialize>::deserialize(&mut &data[..])
                            .map_err(invalid_instruction_data)?;
                    }
                } else {
                    let config = super::wincode_config_expr(
                        super::wincode_config(&Ty::Struct(args.clone())).expect("checked by fits"),
                    );
                    quote! {
                        let args: #args_ty = wincode::config::deserialize(data, #config)
                            .map_err(invalid_instruction_data)?;
                    }
                };
                let use_it = match stored {
                    Some(path) => {
                        let expr = field_expr(quote!(args), args, &path.indexes);
                        match path.ty {
                            Scalar::Bool => quote!(store(out, &[u8::from(#expr)])),
                            Scalar::Pubkey => quote!(store(out, &#expr)),
                            _ => quote!(store(out, &#expr.to_le_bytes())),
                        }
                    }
                    None => quote! {
                        let _ = (args, out);
                        Ok(())
                    },
                };
                quote!(#decode #use_it)
            }
            ArgumentCodec::Walk => {
                let validate = Walk::Validate.function(&args.ident);
                let use_it = match stored {
                    Some(path) => {
                        let steps = walk_to(args, &path.indexes);
                        let len = Literal::usize_unsuffixed(path.ty.width());
                        quote! {
                            let at = 0usize;
                            #steps
                            store(out, data.get(at..at + #len).ok_or(INVALID)?)
                        }
                    }
                    None => quote! {
                        let _ = out;
                        Ok(())
                    },
                };
                quote! {
                    #validate(data, 0)?;
                    #use_it
                }
            }
            ArgumentCodec::Bytemuck => {
                let size = Literal::usize_unsuffixed(
                    struct_layout(args, true)
                        .expect("checked by fits")
                        .layout
                        .size,
                );
                let valid = format_ident!("valid_{}", snake(&args.ident));
                let use_it = match stored {
                    Some(path) => {
                        let expr = field_expr(quote!(args), args, &path.indexes);
                        match path.ty {
                            Scalar::Bool => quote!(store(out, &[#expr])),
                            _ => quote!(store(out, &#expr)),
                        }
                    }
                    None => quote! {
                        let _ = (args, out);
                        Ok(())
                    },
                };
                quote! {
                    let args: &#args_ty = data
                        .get(..#size)
                        .and_then(|bytes| bytemuck::try_from_bytes(bytes).ok())
                        .ok_or(ProgramError::InvalidInstructionData)?;
                    if !#valid(args) {
                        return Err(ProgramError::InvalidInstructionData);
                    }
                    #use_it
                }
            }
        }
    };
    quote! {
        #[doc = #doc]
        fn #name(data: &[u8], out: &mut [u8]) -> ProgramResult {
            #body
        }
    }
}
