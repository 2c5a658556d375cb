//! Proves enforcement: a `Port` is parsed from text once, and every way the
//! text can be wrong has its own `PortError` (empty, a character that is
//! not a decimal digit, zero, above 65535); `Port::new` refuses zero only;
//! and each `PortError` displays a message.
use crate::support::Draw;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// What parsing gave: the port number, or the name of the error.
type Parsed = Result<u16, String>;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each text of `texts(seed)`, what `from_str` gave.
    parsed: Vec<Parsed>,
    /// For each number of `numbers(seed)`, what `Port::new(number).get()` gave.
    made: Vec<Option<u16>>,
    /// How each `PortError` displays, in the order of the enum.
    messages: Vec<String>,
}

/// Texts of every kind: fixed edges, then numbers drawn at random, written
/// plainly, with leading zeros, too large, and with a wrong character.
fn texts(seed: Seed) -> Vec<String> {
    let mut draw = Draw::new(seed, 1);
    let mut texts: Vec<String> = [
        "80",
        "1",
        "65535",
        "",
        "0",
        "00",
        "65536",
        "99999999",
        "99999999999999999999999",
        "8o8o",
        "-1",
        " 80",
        "80 ",
        "0x50",
        "٣",
        "+80",
        "70000x",
    ]
    .iter()
    .map(|text| (*text).to_owned())
    .collect();
    for _ in 0..6 {
        let port = draw.rng().u16(1..);
        texts.push(port.to_string());
        texts.push(format!("{:0>7}", port));
        texts.push(draw.rng().u32(65536..).to_string());
        let mut digits = draw.rng().u16(1000..).to_string().into_bytes();
        let at = draw.usize(0..=digits.len() - 1);
        digits[at] = [b'a', b'.', b'_', b'/', b':'][draw.usize(0..=4)];
        texts.push(String::from_utf8(digits).expect("ASCII"));
    }
    texts
}

/// What the judge expects `text` to parse to.
fn expected(text: &str) -> Parsed {
    if text.is_empty() {
        return Err("Empty".to_owned());
    }
    if !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err("InvalidDigit".to_owned());
    }
    let digits = text.trim_start_matches('0');
    match digits.parse::<u32>() {
        _ if digits.is_empty() => Err("Zero".to_owned()),
        Ok(number) if number <= u32::from(u16::MAX) => Ok(number as u16),
        _ => Err("TooLarge".to_owned()),
    }
}

fn numbers(seed: Seed) -> Vec<u16> {
    let mut draw = Draw::new(seed, 2);
    let mut numbers = vec![0, 1, u16::MAX];
    numbers.extend(draw.ports(5));
    numbers
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use witness_types::{Port, PortError};

    fn name(error: PortError) -> String {
        match error {
            PortError::Empty => "Empty",
            PortError::InvalidDigit => "InvalidDigit",
            PortError::Zero => "Zero",
            PortError::TooLarge => "TooLarge",
        }
        .to_owned()
    }

    Seen {
        parsed: texts(seed)
            .iter()
            .map(|text| text.parse::<Port>().map(Port::get).map_err(name))
            .collect(),
        made: numbers(seed)
            .into_iter()
            .map(|number| Port::new(number).map(Port::get))
            .collect(),
        messages: [
            PortError::Empty,
            PortError::InvalidDigit,
            PortError::Zero,
            PortError::TooLarge,
        ]
        .iter()
        .map(|error| {
            let error: &dyn std::error::Error = error;
            error.to_string()
        })
        .collect(),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let texts = texts(seed);
    assert_eq!(seen.parsed.len(), texts.len());
    for (text, parsed) in texts.iter().zip(&seen.parsed) {
        assert_eq!(
            *parsed,
            expected(text),
            "{text:?}.parse::<Port>() must give {:?}",
            expected(text)
        );
    }
    for (number, made) in numbers(seed).into_iter().zip(&seen.made) {
        let expected = (number != 0).then_some(number);
        assert_eq!(
            *made, expected,
            "Port::new({number}) must give {expected:?}"
        );
    }
    for message in &seen.messages {
        assert!(
            !message.is_empty(),
            "every PortError must display a message"
        );
    }
}
