//! Proves enforcement: a `Port` is parsed from text once, and every way the
//! text can be wrong has its own `PortError`; zero is never a port.
use witness_types::{Port, PortError};

#[test]
fn ports_parse_or_say_why_not() {
    assert_eq!("80".parse::<Port>().map(Port::get), Ok(80));
    assert_eq!("1".parse::<Port>().map(Port::get), Ok(1));
    assert_eq!("65535".parse::<Port>().map(Port::get), Ok(65535));
    assert_eq!("".parse::<Port>(), Err(PortError::Empty));
    assert_eq!("0".parse::<Port>(), Err(PortError::Zero));
    assert_eq!("00".parse::<Port>(), Err(PortError::Zero));
    assert_eq!("65536".parse::<Port>(), Err(PortError::TooLarge));
    assert_eq!("99999999".parse::<Port>(), Err(PortError::TooLarge));
    assert_eq!("8o8o".parse::<Port>(), Err(PortError::InvalidDigit));
    assert_eq!("-1".parse::<Port>(), Err(PortError::InvalidDigit));
    assert_eq!(" 80".parse::<Port>(), Err(PortError::InvalidDigit));
}

#[test]
fn new_refuses_zero_only() {
    assert_eq!(Port::new(0), None);
    assert_eq!(Port::new(1).map(Port::get), Some(1));
    assert_eq!(Port::new(u16::MAX).map(Port::get), Some(u16::MAX));
}

#[test]
fn errors_say_what_is_wrong() {
    let error: Box<dyn std::error::Error> = Box::new(PortError::Zero);
    assert!(!error.to_string().is_empty(), "PortError must display a message");
}
