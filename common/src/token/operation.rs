use pinocchio::error::ProgramError;

/// The operation selected by the first byte of instruction data; further
/// bytes are ignored.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// Decode the whole account, check its owner, change it, encode it back.
    Full = 0,
    /// Read the owner and check it; write nothing.
    ReadOwner = 1,
    /// Set `state` and `amount`; no owner check.
    UpdateAmount = 2,
}

impl Operation {
    pub const ALL: [Operation; 3] = [Self::Full, Self::ReadOwner, Self::UpdateAmount];

    /// The name used in reports, e.g. `bytemuck::read_owner`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::ReadOwner => "read_owner",
            Self::UpdateAmount => "update_amount",
        }
    }

    /// Whether the operation writes account [0] (and so needs it writable).
    pub const fn writes(self) -> bool {
        !matches!(self, Self::ReadOwner)
    }

    #[inline(always)]
    pub fn from_instruction_data(data: &[u8]) -> Result<Self, ProgramError> {
        match data.first() {
            Some(0) => Ok(Self::Full),
            Some(1) => Ok(Self::ReadOwner),
            Some(2) => Ok(Self::UpdateAmount),
            _ => Err(ProgramError::InvalidInstructionData),
        }
    }
}
