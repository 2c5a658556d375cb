//! Port numbers, parsed rather than validated.
//!
//! **Invariant.** A [`Port`] is never zero (port 0 means "pick one for me"
//! to a real network stack, never a destination).
//!
//! The number is a [`NonZeroU16`], so the invariant is also the standard
//! library's: the compiler knows that zero is free and stores
//! `Option<Port>` in two bytes.

use std::fmt;
use std::num::{IntErrorKind, NonZeroU16};
use std::str::FromStr;

/// A port number other than zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Port {
    number: NonZeroU16,
}

impl Port {
    /// `number` as a port, or `None` if it is zero.
    pub fn new(number: u16) -> Option<Self> {
        NonZeroU16::new(number).map(|number| Port { number })
    }

    /// The port number, never zero.
    pub const fn get(self) -> u16 {
        self.number.get()
    }
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.number.fmt(f)
    }
}

/// Why a text is not a port number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortError {
    /// The text is empty.
    Empty,
    /// The text holds something other than decimal digits.
    InvalidDigit,
    /// The number is zero.
    Zero,
    /// The number is above 65535.
    TooLarge,
}

impl fmt::Display for PortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PortError::Empty => "no port number given",
            PortError::InvalidDigit => "a port number has only decimal digits",
            PortError::Zero => "port 0 is not a port one can send to",
            PortError::TooLarge => "a port number is at most 65535",
        })
    }
}

impl std::error::Error for PortError {}

impl FromStr for Port {
    type Err = PortError;

    /// Parses a decimal port number, such as `"8080"`: decimal digits
    /// only (leading zeros are fine). Any other character, a sign
    /// (`"+80"`) or a space included, is [`PortError::InvalidDigit`],
    /// checked before the number's size: `"70000x"` is not a number.
    fn from_str(text: &str) -> Result<Self, PortError> {
        // Decimal digits only: `u16`'s own parser also takes a sign
        // (`+80`), and says "too large" of `70000x`.
        if !text.bytes().all(|byte| byte.is_ascii_digit()) {
            return Err(PortError::InvalidDigit);
        }
        let number = text.parse::<u16>().map_err(|err| match err.kind() {
            IntErrorKind::Empty => PortError::Empty,
            IntErrorKind::PosOverflow => PortError::TooLarge,
            _ => PortError::InvalidDigit,
        })?;
        Port::new(number).ok_or(PortError::Zero)
    }
}
