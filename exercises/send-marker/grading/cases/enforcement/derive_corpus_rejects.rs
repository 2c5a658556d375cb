//! Proves enforcement: `#[derive(Sendable)]` refuses every type of a
//! corpus that has one field that is not `Sendable`: a raw pointer, an
//! `Rc`, a guard, a shared `Cell`, a type nobody declared `Sendable`,
//! alone or deep inside `Option`, `Box`, tuples, arrays, `Vec`, maps and
//! locks; in every position, in structs, tuple structs, enums and generic
//! types; under attributes a derive could take for its own; in types that
//! share a name; and in modules where a local `Sendable` or `send_marker`
//! shadows the real one. Each type's field mentions a tag type of its own
//! (`TagNN`), and each tag has its annotation: a derive that lets one
//! type through loses the case.
//!
//! Written by `cargo run -p xsafe-grading-proofs --bin corpus -- --write`
//! (ci/proofs/src/corpus.rs): do not edit by hand.
#![allow(dead_code, unused_imports, clippy::type_complexity)]

use send_marker::Sendable;

/// A type that is `Send` but that nobody declared `Sendable`.
pub struct Plain<T>(pub T);

/// A `Token` that is `Sendable` when its contents are.
pub mod alike {
    use super::*;

    #[derive(Sendable)]
    pub struct Token<T>(pub T);
}

/// Another `Token`, which is not `Sendable`.
pub mod lookalike {
    pub struct Token<T>(pub T);
}

/// The tags: each names one rejected type in its error. They are
/// `Sendable`, so that only what holds one (an `Rc`, a raw pointer, a
/// shared `Cell`) is not: a wrong impl for it lets the type through.
macro_rules! tags {
    ($($tag:ident)*) => {
        $(
            pub struct $tag<T = ()>(std::marker::PhantomData<T>);
            // SAFETY: a tag holds nothing but a marker of `T`, which may move.
            unsafe impl<T: Sendable> Sendable for $tag<T> {}
        )*
    };
}

tags!(
    Tag01 Tag02 Tag03 Tag04 Tag05 Tag06 Tag07 Tag08
    Tag09 Tag10 Tag11 Tag12 Tag13 Tag14 Tag15 Tag16
    Tag17 Tag18 Tag19 Tag20 Tag21 Tag22 Tag23 Tag24
    Tag25 Tag26 Tag27 Tag28 Tag29 Tag30 Tag31 Tag32
    Tag33 Tag34 Tag35 Tag36 Tag37 Tag38 Tag39 Tag40
    Tag41 Tag42 Tag43 Tag44 Tag45 Tag46 Tag47 Tag48
    Tag49 Tag50 Tag51 Tag52 Tag53 Tag54 Tag55 Tag56
    Tag57 Tag58 Tag59 Tag60 Tag61 Tag62 Tag63 Tag64
    Tag65 Tag66 Tag67 Tag68 Tag69 Tag70 Tag71 Tag72
    Tag73 Tag74 Tag75
);

// A field under `#[sendable(skip)]` is an error of its own (the derive
// declares no such attribute), which the case tolerates.
//~? ALLOW "cannot find attribute"

// R01: a struct with named fields, whose field 1 of 3 holds an `Rc`.
#[derive(Sendable)]
pub struct R01 {
    pub field_0: std::rc::Rc<Tag01>,
    pub field_1: Option<u8>,
    pub field_2: u8,
}
//~? ERROR E0277 "Tag01"

// R02: a tuple struct, whose field 1 of 3 holds an `rc::Weak` inside `Option<_>`, under a doc comment.
#[derive(Sendable)]
pub struct R02(
    /// A doc comment is an attribute too.
    pub Option<std::rc::Weak<Tag02>>,
    pub Option<u8>,
    pub &'static str,
);
//~? ERROR E0277 "Tag02"

// R03: an enum, whose field 2 of 3 holds a `*const` inside `Box<_>`, under `#[doc = "a doc attribute"]`.
#[derive(Sendable)]
pub enum R03 {
    Idle,
    Variant0(
        Box<u8>,
    ),
    Variant1 {
        #[doc = "a doc attribute"]
        field: Box<*const Tag03>,
    },
    Variant2(
        [u64; 4],
    ),
}
//~? ERROR E0277 "Tag03"

// R04: a generic struct (bounds, a default, a `where` clause), whose field 4 of 5 holds a `*mut` inside `Vec<_>`, under `#[doc(hidden)]`.
#[derive(Sendable)]
pub struct R04<T: Clone, U = u8>
where
    U: Default,
{
    pub field_0: T,
    pub field_1: Vec<U>,
    pub field_2: Vec<u8>,
    #[doc(hidden)]
    pub field_3: Vec<*mut Tag04<T>>,
    pub field_4: std::collections::BTreeMap<u8, Vec<u8>>,
}
//~? ERROR E0277 "Tag04"

// R05: a struct with a lifetime, whose field 4 of 4 holds a `NonNull` inside `(u8, _)`, under `#[cfg_attr(all(), doc = "skip")]`.
#[derive(Sendable)]
pub struct R05<'a> {
    pub field_0: &'a str,
    pub field_1: (u8, u8),
    pub field_2: std::marker::PhantomData<String>,
    #[cfg_attr(all(), doc = "skip")]
    pub field_3: (u8, std::ptr::NonNull<Tag05>),
}
//~? ERROR E0277 "Tag05"

// R06: a struct with a const parameter, whose field 4 of 4 holds a shared `Cell` inside `[_; 2]`, under `#[allow(clippy::type_complexity)]`.
#[derive(Sendable)]
pub struct R06<const N: usize>(
    pub [u8; N],
    pub [u8; 2],
    pub alike::Token<u8>,
    #[allow(clippy::type_complexity)]
    pub [&'static std::cell::Cell<Tag06>; 2],
);
//~? ERROR E0277 "Tag06"

// R07: a generic enum with a `where` clause, whose field 2 of 4 holds a shared `RefCell` inside `Result<String, _>`, under `#[rustfmt::skip]`.
#[derive(Sendable)]
pub enum R07<T>
where
    T: Copy + Default,
{
    Idle,
    Variant0(
        T,
    ),
    Variant1 {
        #[rustfmt::skip]
        field: Result<String, &'static std::cell::RefCell<Tag07>>,
    },
    Variant2(
        Result<String, u8>,
    ),
    Variant3 {
        field: usize,
    },
}
//~? ERROR E0277 "Tag07"

// R08: a struct with named fields, whose field 1 of 3 holds a `MutexGuard` inside `std::collections::HashMap<u16, _>`, under `#[cfg(all())]`.
#[derive(Sendable)]
pub struct R08 {
    #[cfg(all())]
    pub field_0: std::collections::HashMap<u16, std::sync::MutexGuard<'static, Tag08>>,
    pub field_1: std::collections::HashMap<u16, u8>,
    pub field_2: Result<u32, String>,
}
//~? ERROR E0277 "Tag08"

// R09: a tuple struct, whose field 2 of 3 holds a `RefMut` inside `std::sync::Mutex<_>`, under `#[sendable(skip)]`.
#[derive(Sendable)]
pub struct R09(
    pub std::sync::Mutex<u8>,
    #[sendable(skip)]
    pub std::sync::Mutex<std::cell::RefMut<'static, Tag09>>,
    pub std::sync::RwLock<u8>,
);
//~? ERROR E0277 "Tag09"

// R10: an enum, whose field 2 of 3 holds a `PhantomData` of an `Rc` inside `Option<Box<(char, _)>>`.
#[derive(Sendable)]
pub enum R10 {
    Variant0(
        Option<Box<(char, u8)>>,
    ),
    Variant1 {
        field: Option<Box<(char, std::marker::PhantomData<std::rc::Rc<Tag10>>)>>,
    },
    Variant2(
        std::sync::mpsc::Receiver<u8>,
    ),
    Done,
}
//~? ERROR E0277 "Tag10"

// R11: a generic struct (bounds, a default, a `where` clause), whose field 5 of 5 holds an `Arc` of a `Cell` inside `std::collections::VecDeque<[_; 1]>`, under a doc comment.
#[derive(Sendable)]
pub struct R11<T: Clone, U = u8>
where
    U: Default,
{
    pub field_0: T,
    pub field_1: Vec<U>,
    pub field_2: std::collections::VecDeque<[u8; 1]>,
    pub field_3: &'static [u16],
    /// A doc comment is an attribute too.
    pub field_4: std::collections::VecDeque<[std::sync::Arc<std::cell::Cell<Tag11<T>>>; 1]>,
}
//~? ERROR E0277 "Tag11"

// R12: a struct with a lifetime, whose field 4 of 4 holds a type nobody declared `Sendable` inside `std::sync::Arc<std::sync::Mutex<_>>`, under `#[doc = "a doc attribute"]`.
#[derive(Sendable)]
pub struct R12<'a> {
    pub field_0: &'a str,
    pub field_1: std::sync::Arc<std::sync::Mutex<u8>>,
    pub field_2: char,
    #[doc = "a doc attribute"]
    pub field_3: std::sync::Arc<std::sync::Mutex<Plain<Tag12>>>,
}
//~? ERROR E0277 "Tag12"

// R13: a struct with a const parameter, whose field 2 of 4 holds a `Token` that is not `Sendable` (another module has a `Token` that is), under `#[doc(hidden)]`.
#[derive(Sendable)]
pub struct R13<const N: usize>(
    pub [u8; N],
    #[doc(hidden)]
    pub lookalike::Token<Tag13>,
    pub alike::Token<u8>,
    pub Box<[u32]>,
);
//~? ERROR E0277 "Tag13"

// R14: a generic enum with a `where` clause, whose field 2 of 4 holds an `Rc` inside `Option<_>`, under `#[cfg_attr(all(), doc = "skip")]`.
#[derive(Sendable)]
pub enum R14<T>
where
    T: Copy + Default,
{
    /// A documented variant.
    Variant0(
        T,
    ),
    Variant1 {
        #[cfg_attr(all(), doc = "skip")]
        field: Option<std::rc::Rc<Tag14<T>>>,
    },
    /// A documented variant.
    Variant2(
        Option<u8>,
    ),
    Variant3 {
        field: std::cell::Cell<u64>,
    },
    Done,
}
//~? ERROR E0277 "Tag14"

// R15: a struct with named fields, whose field 2 of 3 holds an `rc::Weak` inside `Box<_>`, under `#[allow(clippy::type_complexity)]`.
#[derive(Sendable)]
pub struct R15 {
    pub field_0: Box<u8>,
    #[allow(clippy::type_complexity)]
    pub field_1: Box<std::rc::Weak<Tag15>>,
    pub field_2: std::collections::HashSet<u64>,
}
//~? ERROR E0277 "Tag15"

// R16: a tuple struct, whose field 2 of 3 holds a `*const` inside `Vec<_>`, under `#[rustfmt::skip]`.
#[derive(Sendable)]
pub struct R16(
    pub Vec<u8>,
    #[rustfmt::skip]
    pub Vec<*const Tag16>,
    pub &'static std::sync::Mutex<u8>,
);
//~? ERROR E0277 "Tag16"

// R17: an enum, whose field 3 of 3 holds a `*mut` inside `(u8, _)`, under `#[cfg(all())]`.
#[derive(Sendable)]
pub enum R17 {
    Idle,
    /// A documented variant.
    Variant0(
        (u8, u8),
    ),
    Variant1 {
        field: i64,
    },
    /// A documented variant.
    Variant2(
        #[cfg(all())]
        (u8, *mut Tag17),
    ),
}
//~? ERROR E0277 "Tag17"

// R18: a generic struct (bounds, a default, a `where` clause), whose field 5 of 5 holds a `NonNull` inside `[_; 2]`, under `#[sendable(skip)]`.
#[derive(Sendable)]
pub struct R18<T: Clone, U = u8>
where
    U: Default,
{
    pub field_0: T,
    pub field_1: Vec<U>,
    pub field_2: [u8; 2],
    pub field_3: Vec<u16>,
    #[sendable(skip)]
    pub field_4: [std::ptr::NonNull<Tag18<T>>; 2],
}
//~? ERROR E0277 "Tag18"

// R19: a struct with a lifetime, whose field 2 of 4 holds a shared `Cell` inside `Result<String, _>`.
#[derive(Sendable)]
pub struct R19<'a> {
    pub field_0: &'a str,
    pub field_1: Result<String, &'a std::cell::Cell<Tag19>>,
    pub field_2: Result<String, u8>,
    pub field_3: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}
//~? ERROR E0277 "Tag19"

// R20: a struct with a const parameter, whose field 2 of 4 holds a shared `RefCell` inside `std::collections::HashMap<u16, _>`, under a doc comment.
#[derive(Sendable)]
pub struct R20<const N: usize>(
    pub [u8; N],
    /// A doc comment is an attribute too.
    pub std::collections::HashMap<u16, &'static std::cell::RefCell<Tag20>>,
    pub std::collections::HashMap<u16, u8>,
    pub std::collections::VecDeque<char>,
);
//~? ERROR E0277 "Tag20"

// R21: a generic enum with a `where` clause, whose field 3 of 4 holds a `MutexGuard` inside `std::sync::Mutex<_>`, under `#[doc = "a doc attribute"]`.
#[derive(Sendable)]
pub enum R21<T>
where
    T: Copy + Default,
{
    Idle,
    Variant0(
        T,
    ),
    Variant1 {
        field: std::sync::Mutex<u8>,
    },
    Variant2(
        #[doc = "a doc attribute"]
        std::sync::Mutex<std::sync::MutexGuard<'static, Tag21>>,
    ),
    Variant3 {
        field: std::time::Duration,
    },
}
//~? ERROR E0277 "Tag21"

// R22: a struct with named fields, whose field 2 of 3 holds a `RefMut` inside `Option<Box<(char, _)>>`, under `#[doc(hidden)]`.
#[derive(Sendable)]
pub struct R22 {
    pub field_0: Option<Box<(char, u8)>>,
    #[doc(hidden)]
    pub field_1: Option<Box<(char, std::cell::RefMut<'static, Tag22>)>>,
    pub field_2: Box<Option<(u8, [char; 2])>>,
}
//~? ERROR E0277 "Tag22"

// R23: a tuple struct, whose field 3 of 3 holds a `PhantomData` of an `Rc` inside `std::collections::VecDeque<[_; 1]>`, under `#[cfg_attr(all(), doc = "skip")]`.
#[derive(Sendable)]
pub struct R23(
    pub std::collections::VecDeque<[u8; 1]>,
    pub String,
    #[cfg_attr(all(), doc = "skip")]
    pub std::collections::VecDeque<[std::marker::PhantomData<std::rc::Rc<Tag23>>; 1]>,
);
//~? ERROR E0277 "Tag23"

// R24: an enum, whose field 3 of 3 holds an `Arc` of a `Cell` inside `std::sync::Arc<std::sync::Mutex<_>>`, under `#[allow(clippy::type_complexity)]`.
#[derive(Sendable)]
pub enum R24 {
    Many {
        field_0: std::sync::Arc<std::sync::Mutex<u8>>,
        field_1: (u8, String, [char; 2]),
        #[allow(clippy::type_complexity)]
        field_2: std::sync::Arc<std::sync::Mutex<std::sync::Arc<std::cell::Cell<Tag24>>>>,
    },
    Done,
}
//~? ERROR E0277 "Tag24"

// R25: a generic struct (bounds, a default, a `where` clause), whose field 3 of 5 holds a type nobody declared `Sendable`, under `#[rustfmt::skip]`.
#[derive(Sendable)]
pub struct R25<T: Clone, U = u8>
where
    U: Default,
{
    pub field_0: T,
    pub field_1: Vec<U>,
    #[rustfmt::skip]
    pub field_2: Plain<Tag25<T>>,
    pub field_3: Option<u8>,
    pub field_4: std::collections::HashMap<String, u32>,
}
//~? ERROR E0277 "Tag25"

// R26: a struct with a lifetime, whose field 2 of 4 holds a `Token` that is not `Sendable` (another module has a `Token` that is) inside `Option<_>`, under `#[cfg(all())]`.
#[derive(Sendable)]
pub struct R26<'a> {
    pub field_0: &'a str,
    #[cfg(all())]
    pub field_1: Option<lookalike::Token<Tag26>>,
    pub field_2: Option<u8>,
    pub field_3: std::sync::mpsc::SyncSender<Box<str>>,
}
//~? ERROR E0277 "Tag26"

// R27: a struct with a const parameter, whose field 3 of 4 holds an `Rc` inside `Box<_>`, under `#[sendable(skip)]`.
#[derive(Sendable)]
pub struct R27<const N: usize>(
    pub [u8; N],
    pub Box<u8>,
    #[sendable(skip)]
    pub Box<std::rc::Rc<Tag27>>,
    pub &'static std::sync::atomic::AtomicBool,
);
//~? ERROR E0277 "Tag27"

// R28: a generic enum with a `where` clause, whose field 3 of 4 holds an `rc::Weak` inside `Vec<_>`.
#[derive(Sendable)]
pub enum R28<T>
where
    T: Copy + Default,
{
    Many(
        T,
        Vec<u8>,
        Vec<std::rc::Weak<Tag28<T>>>,
        f64,
    ),
    Done,
}
//~? ERROR E0277 "Tag28"

// R29: a struct with named fields, whose field 3 of 3 holds a `*const` inside `(u8, _)`, under a doc comment.
#[derive(Sendable)]
pub struct R29 {
    pub field_0: (u8, u8),
    pub field_1: Option<String>,
    /// A doc comment is an attribute too.
    pub field_2: (u8, *const Tag29),
}
//~? ERROR E0277 "Tag29"

// R30: a tuple struct, whose field 3 of 3 holds a `*mut` inside `[_; 2]`, under `#[doc = "a doc attribute"]`.
#[derive(Sendable)]
pub struct R30(
    pub [u8; 2],
    pub std::cell::RefCell<String>,
    #[doc = "a doc attribute"]
    pub [*mut Tag30; 2],
);
//~? ERROR E0277 "Tag30"

// R31: an enum, whose field 1 of 3 holds a `NonNull` inside `Result<String, _>`, under `#[doc(hidden)]`.
#[derive(Sendable)]
pub enum R31 {
    Idle,
    Variant0(
        #[doc(hidden)]
        Result<String, std::ptr::NonNull<Tag31>>,
    ),
    Variant1 {
        field: Result<String, u8>,
    },
    Variant2(
        std::sync::mpsc::Sender<String>,
    ),
}
//~? ERROR E0277 "Tag31"

// R32: a generic struct (bounds, a default, a `where` clause), whose field 3 of 5 holds a shared `Cell` inside `std::collections::HashMap<u16, _>`, under `#[cfg_attr(all(), doc = "skip")]`.
#[derive(Sendable)]
pub struct R32<T: Clone, U = u8>
where
    U: Default,
{
    pub field_0: T,
    pub field_1: Vec<U>,
    #[cfg_attr(all(), doc = "skip")]
    pub field_2: std::collections::HashMap<u16, &'static std::cell::Cell<Tag32>>,
    pub field_3: std::collections::HashMap<u16, u8>,
    pub field_4: &'static mut std::cell::Cell<u8>,
}
//~? ERROR E0277 "Tag32"

// R33: a struct with a lifetime, whose field 3 of 4 holds a shared `RefCell` inside `std::sync::Mutex<_>`, under `#[allow(clippy::type_complexity)]`.
#[derive(Sendable)]
pub struct R33<'a> {
    pub field_0: &'a str,
    pub field_1: std::sync::Mutex<u8>,
    #[allow(clippy::type_complexity)]
    pub field_2: std::sync::Mutex<&'a std::cell::RefCell<Tag33>>,
    pub field_3: bool,
}
//~? ERROR E0277 "Tag33"

// R34: a struct with a const parameter, whose field 3 of 4 holds a `MutexGuard` inside `Option<Box<(char, _)>>`, under `#[rustfmt::skip]`.
#[derive(Sendable)]
pub struct R34<const N: usize>(
    pub [u8; N],
    pub Option<Box<(char, u8)>>,
    #[rustfmt::skip]
    pub Option<Box<(char, std::sync::MutexGuard<'static, Tag34>)>>,
    pub Box<str>,
);
//~? ERROR E0277 "Tag34"

// R35: a generic enum with a `where` clause, whose field 4 of 4 holds a `RefMut` inside `std::collections::VecDeque<[_; 1]>`, under `#[cfg(all())]`.
#[derive(Sendable)]
pub enum R35<T>
where
    T: Copy + Default,
{
    Idle,
    /// A documented variant.
    Variant0(
        T,
    ),
    Variant1 {
        field: std::collections::VecDeque<[u8; 1]>,
    },
    /// A documented variant.
    Variant2(
        std::sync::Arc<std::sync::atomic::AtomicBool>,
    ),
    Variant3 {
        #[cfg(all())]
        field: std::collections::VecDeque<[std::cell::RefMut<'static, Tag35>; 1]>,
    },
}
//~? ERROR E0277 "Tag35"

// R36: a struct with named fields, whose field 3 of 3 holds a `PhantomData` of an `Rc` inside `std::sync::Arc<std::sync::Mutex<_>>`, under `#[sendable(skip)]`.
#[derive(Sendable)]
pub struct R36 {
    pub field_0: std::sync::Arc<std::sync::Mutex<u8>>,
    pub field_1: std::collections::BTreeSet<i32>,
    #[sendable(skip)]
    pub field_2: std::sync::Arc<std::sync::Mutex<std::marker::PhantomData<std::rc::Rc<Tag36>>>>,
}
//~? ERROR E0277 "Tag36"

// R37: a tuple struct, whose field 1 of 3 holds an `Arc` of a `Cell`.
#[derive(Sendable)]
pub struct R37(
    pub std::sync::Arc<std::cell::Cell<Tag37>>,
    pub std::sync::Arc<std::sync::Mutex<u8>>,
    pub std::time::Instant,
);
//~? ERROR E0277 "Tag37"

// R38: an enum, whose field 1 of 3 holds a type nobody declared `Sendable` inside `Option<_>`, under a doc comment.
#[derive(Sendable)]
pub enum R38 {
    /// A documented variant.
    Variant0(
        /// A doc comment is an attribute too.
        Option<Plain<Tag38>>,
    ),
    Variant1 {
        field: Option<u8>,
    },
    /// A documented variant.
    Variant2(
        u8,
    ),
    Done,
}
//~? ERROR E0277 "Tag38"

// R39: a generic struct (bounds, a default, a `where` clause), whose field 4 of 5 holds a `Token` that is not `Sendable` (another module has a `Token` that is) inside `Box<_>`, under `#[doc = "a doc attribute"]`.
#[derive(Sendable)]
pub struct R39<T: Clone, U = u8>
where
    U: Default,
{
    pub field_0: T,
    pub field_1: Vec<U>,
    pub field_2: Box<u8>,
    #[doc = "a doc attribute"]
    pub field_3: Box<lookalike::Token<Tag39<T>>>,
    pub field_4: &'static str,
}
//~? ERROR E0277 "Tag39"

// R40: a struct with a lifetime, whose field 3 of 4 holds an `Rc` inside `Vec<_>`, under `#[doc(hidden)]`.
#[derive(Sendable)]
pub struct R40<'a> {
    pub field_0: &'a str,
    pub field_1: Vec<u8>,
    #[doc(hidden)]
    pub field_2: Vec<std::rc::Rc<Tag40>>,
    pub field_3: [u64; 4],
}
//~? ERROR E0277 "Tag40"

// R41: a struct with a const parameter, whose field 4 of 4 holds an `rc::Weak` inside `(u8, _)`, under `#[cfg_attr(all(), doc = "skip")]`.
#[derive(Sendable)]
pub struct R41<const N: usize>(
    pub [u8; N],
    pub (u8, u8),
    pub std::collections::BTreeMap<u8, Vec<u8>>,
    #[cfg_attr(all(), doc = "skip")]
    pub (u8, std::rc::Weak<Tag41>),
);
//~? ERROR E0277 "Tag41"

// R42: a generic enum with a `where` clause, whose field 4 of 4 holds a `*const` inside `[_; 2]`, under `#[allow(clippy::type_complexity)]`.
#[derive(Sendable)]
pub enum R42<T>
where
    T: Copy + Default,
{
    Variant0(
        T,
    ),
    Variant1 {
        field: [u8; 2],
    },
    Variant2(
        std::marker::PhantomData<String>,
    ),
    Variant3 {
        #[allow(clippy::type_complexity)]
        field: [*const Tag42<T>; 2],
    },
    Done,
}
//~? ERROR E0277 "Tag42"

// R43: a struct with named fields, whose field 1 of 3 holds a `*mut` inside `Result<String, _>`, under `#[rustfmt::skip]`.
#[derive(Sendable)]
pub struct R43 {
    #[rustfmt::skip]
    pub field_0: Result<String, *mut Tag43>,
    pub field_1: Result<String, u8>,
    pub field_2: alike::Token<u8>,
}
//~? ERROR E0277 "Tag43"

// R44: a tuple struct, whose field 1 of 3 holds a `NonNull` inside `std::collections::HashMap<u16, _>`, under `#[cfg(all())]`.
#[derive(Sendable)]
pub struct R44(
    #[cfg(all())]
    pub std::collections::HashMap<u16, std::ptr::NonNull<Tag44>>,
    pub std::collections::HashMap<u16, u8>,
    pub usize,
);
//~? ERROR E0277 "Tag44"

// R45: an enum, whose field 2 of 3 holds a shared `Cell` inside `std::sync::Mutex<_>`, under `#[sendable(skip)]`.
#[derive(Sendable)]
pub enum R45 {
    Idle,
    Variant0(
        std::sync::Mutex<u8>,
    ),
    Variant1 {
        #[sendable(skip)]
        field: std::sync::Mutex<&'static std::cell::Cell<Tag45>>,
    },
    Variant2(
        Result<u32, String>,
    ),
}
//~? ERROR E0277 "Tag45"

// R46: a generic struct (bounds, a default, a `where` clause), whose field 4 of 5 holds a shared `RefCell` inside `Option<Box<(char, _)>>`.
#[derive(Sendable)]
pub struct R46<T: Clone, U = u8>
where
    U: Default,
{
    pub field_0: T,
    pub field_1: Vec<U>,
    pub field_2: Option<Box<(char, u8)>>,
    pub field_3: Option<Box<(char, &'static std::cell::RefCell<Tag46>)>>,
    pub field_4: std::sync::RwLock<u8>,
}
//~? ERROR E0277 "Tag46"

// R47: a struct with a lifetime, whose field 4 of 4 holds a `MutexGuard` inside `std::collections::VecDeque<[_; 1]>`, under a doc comment.
#[derive(Sendable)]
pub struct R47<'a> {
    pub field_0: &'a str,
    pub field_1: std::collections::VecDeque<[u8; 1]>,
    pub field_2: std::sync::mpsc::Receiver<u8>,
    /// A doc comment is an attribute too.
    pub field_3: std::collections::VecDeque<[std::sync::MutexGuard<'a, Tag47>; 1]>,
}
//~? ERROR E0277 "Tag47"

// R48: a struct with a const parameter, whose field 4 of 4 holds a `RefMut` inside `std::sync::Arc<std::sync::Mutex<_>>`, under `#[doc = "a doc attribute"]`.
#[derive(Sendable)]
pub struct R48<const N: usize>(
    pub [u8; N],
    pub std::sync::Arc<std::sync::Mutex<u8>>,
    pub &'static [u16],
    #[doc = "a doc attribute"]
    pub std::sync::Arc<std::sync::Mutex<std::cell::RefMut<'static, Tag48>>>,
);
//~? ERROR E0277 "Tag48"

// R49: a generic enum with a `where` clause, whose field 2 of 4 holds a `PhantomData` of an `Rc`, under `#[doc(hidden)]`.
#[derive(Sendable)]
pub enum R49<T>
where
    T: Copy + Default,
{
    Idle,
    Variant0(
        T,
    ),
    Variant1 {
        #[doc(hidden)]
        field: std::marker::PhantomData<std::rc::Rc<Tag49<T>>>,
    },
    Variant2(
        std::marker::PhantomData<String>,
    ),
    Variant3 {
        field: char,
    },
}
//~? ERROR E0277 "Tag49"

// R50: a struct with named fields, whose field 1 of 3 holds an `Arc` of a `Cell` inside `Option<_>`, under `#[cfg_attr(all(), doc = "skip")]`.
#[derive(Sendable)]
pub struct R50 {
    #[cfg_attr(all(), doc = "skip")]
    pub field_0: Option<std::sync::Arc<std::cell::Cell<Tag50>>>,
    pub field_1: Option<u8>,
    pub field_2: Box<[u32]>,
}
//~? ERROR E0277 "Tag50"

// R51: a tuple struct, whose field 2 of 3 holds a type nobody declared `Sendable` inside `Box<_>`, under `#[allow(clippy::type_complexity)]`.
#[derive(Sendable)]
pub struct R51(
    pub Box<u8>,
    #[allow(clippy::type_complexity)]
    pub Box<Plain<Tag51>>,
    pub std::cell::Cell<u64>,
);
//~? ERROR E0277 "Tag51"

// R52: an enum, whose field 2 of 3 holds a `Token` that is not `Sendable` (another module has a `Token` that is) inside `Vec<_>`, under `#[rustfmt::skip]`.
#[derive(Sendable)]
pub enum R52 {
    Many(
        Vec<u8>,
        #[rustfmt::skip]
        Vec<lookalike::Token<Tag52>>,
        std::collections::HashSet<u64>,
    ),
    Done,
}
//~? ERROR E0277 "Tag52"

// The shapes of a field's type beyond a plain path: each rejected
// type holds an `Rc`; its `Good` twin, of the same shape, holds a `Box`
// and must be accepted (an error there fails the case too).

// R62: a struct whose field's type is a type from a macro's `$t:ty` (a group of tokens), holding an `Rc`.
macro_rules! r62_struct {
    ($name:ident, $t:ty) => {
        #[derive(Sendable)]
        pub struct $name {
            pub id: u32,
            pub field: $t,
        }
    };
}
r62_struct!(R62, std::rc::Rc<Tag62>);
//~? ERROR E0277 "Tag62"

// R63: a struct whose field's type is a parenthesised type, holding an `Rc`.
#[derive(Sendable)]
#[allow(unused_parens)]
pub struct R63 {
    pub id: u32,
    pub field: (std::rc::Rc<Tag63>),
}
//~? ERROR E0277 "Tag63"

// R64: a struct whose field's type is a qualified path to an associated type, holding an `Rc`.
pub trait R64Holds {
    type Inner;
}
pub struct R64Holder;
impl R64Holds for R64Holder {
    type Inner = std::rc::Rc<Tag64>;
}
#[derive(Sendable)]
pub struct R64 {
    pub id: u32,
    pub field: <R64Holder as R64Holds>::Inner,
}
//~? ERROR E0277 "Tag64"

// R65: a struct whose field's type is a macro in type position, holding an `Rc`.
macro_rules! r65_shared {
    ($t:ty) => {
        std::rc::Rc<$t>
    };
}
#[derive(Sendable)]
pub struct R65 {
    pub id: u32,
    pub field: r65_shared!(Tag65),
}
//~? ERROR E0277 "Tag65"

// R66: a struct whose field's type is a macro's `$t:ty` nested in generics (a group inside a path), holding an `Rc`.
macro_rules! r66_list {
    ($name:ident, $t:ty) => {
        #[derive(Sendable)]
        pub struct $name {
            pub id: u32,
            pub items: Vec<Option<$t>>,
        }
    };
}
r66_list!(R66, std::rc::Rc<Tag66>);
//~? ERROR E0277 "Tag66"

// R67: a struct whose field's type is a projection through a trait of `std`, holding an `Rc`.
#[derive(Sendable)]
pub struct R67 {
    pub id: u32,
    pub field: <Vec<std::rc::Rc<Tag67>> as IntoIterator>::Item,
}
//~? ERROR E0277 "Tag67"

// R68: a struct whose field's type is a trait object, holding an `Rc`.
#[derive(Sendable)]
pub struct R68 {
    pub id: u32,
    pub job: Box<dyn Fn() -> Tag68>,
}
//~? ERROR E0277 "Tag68"

// R69: a struct whose field's type is a slice in a box, holding an `Rc`.
#[derive(Sendable)]
pub struct R69 {
    pub id: u32,
    pub items: Box<[std::rc::Rc<Tag69>]>,
}
//~? ERROR E0277 "Tag69"

// R70: a struct whose field's type is an array whose length is a constant expression, holding an `Rc`.
#[derive(Sendable)]
pub struct R70 {
    pub id: u32,
    pub items: [std::rc::Rc<Tag70>; 1 + 1],
}
//~? ERROR E0277 "Tag70"

// R71: a struct whose field's type is `Self` (a list that links to itself), holding an `Rc`.
#[derive(Sendable)]
pub struct R71 {
    pub value: Tag71,
    pub next: Option<std::rc::Rc<(Self, Tag71)>>,
}
//~? ERROR E0277 "Tag71"

// R72: a struct whose field's type is `Self` in a generic type, holding an `Rc`.
#[derive(Sendable)]
pub struct R72<T> {
    pub value: T,
    pub next: Option<std::rc::Rc<(Self, Tag72)>>,
}
//~? ERROR E0277 "Tag72"

// R73: a struct whose field's type is a borrowed parameter (the definition implies `T: 'a`), holding an `Rc`.
#[derive(Sendable)]
pub struct R73<'a, T> {
    pub value: &'a mut T,
    pub shared: std::rc::Rc<Tag73>,
}
//~? ERROR E0277 "Tag73"

// R74: a struct whose field's type is a generic type used with a borrow that is not `'static`, holding an `Rc`.
#[derive(Sendable)]
pub struct R74<T> {
    pub value: T,
    pub shared: std::rc::Rc<Tag74>,
}
//~? ERROR E0277 "Tag74"

// R75: a struct whose field's type is the type's own name, in an enum, holding an `Rc`.
#[derive(Sendable)]
pub enum R75 {
    Leaf(Tag75),
    Shared(std::rc::Rc<(R75, Tag75)>),
}
//~? ERROR E0277 "Tag75"

// R62Good: the same shape, a type from a macro's `$t:ty` (a group of tokens), holding a `Box`.
r62_struct!(R62Good, Box<Tag62>);

// R63Good: the same shape, a parenthesised type, holding a `Box`.
#[derive(Sendable)]
#[allow(unused_parens)]
pub struct R63Good {
    pub id: u32,
    pub field: (Box<Tag63>),
}

// R64Good: the same shape, a qualified path to an associated type, holding a `Box`.
pub struct R64GoodHolder;
impl R64Holds for R64GoodHolder {
    type Inner = Box<Tag64>;
}
#[derive(Sendable)]
pub struct R64Good {
    pub id: u32,
    pub field: <R64GoodHolder as R64Holds>::Inner,
}

// R65Good: the same shape, a macro in type position, holding a `Box`.
macro_rules! r65_owned {
    ($t:ty) => {
        Box<$t>
    };
}
#[derive(Sendable)]
pub struct R65Good {
    pub id: u32,
    pub field: r65_owned!(Tag65),
}

// R66Good: the same shape, a macro's `$t:ty` nested in generics (a group inside a path), holding a `Box`.
r66_list!(R66Good, Box<Tag66>);

// R67Good: the same shape, a projection through a trait of `std`, holding a `Box`.
#[derive(Sendable)]
pub struct R67Good {
    pub id: u32,
    pub field: <Vec<Box<Tag67>> as IntoIterator>::Item,
}

// R68Good: the same shape, a trait object, holding a `Box`.
/// A job that may move: `Sendable` is its supertrait, so `dyn R68Job` is `Sendable`.
pub trait R68Job: Sendable {}
#[derive(Sendable)]
pub struct R68Good {
    pub id: u32,
    pub job: Box<dyn R68Job>,
    pub tag: Tag68,
}

// R69Good: the same shape, a slice in a box, holding a `Box`.
#[derive(Sendable)]
pub struct R69Good {
    pub id: u32,
    pub items: Box<[Box<Tag69>]>,
}

// R70Good: the same shape, an array whose length is a constant expression, holding a `Box`.
#[derive(Sendable)]
pub struct R70Good {
    pub id: u32,
    pub items: [Box<Tag70>; 2 * 2],
}

// R71Good: the same shape, `Self` (a list that links to itself), holding a `Box`.
#[derive(Sendable)]
pub struct R71Good {
    pub value: Tag71,
    pub next: Option<Box<Self>>,
}

// R72Good: the same shape, `Self` in a generic type, holding a `Box`.
#[derive(Sendable)]
pub struct R72Good<T> {
    pub value: T,
    pub tag: Tag72,
    pub next: Option<Box<Self>>,
}

// R73Good: the same shape, a borrowed parameter (the definition implies `T: 'a`), holding a `Box`.
#[derive(Sendable)]
pub struct R73Good<'a, T> {
    pub value: &'a mut T,
    pub tag: Tag73,
}

// R74Good: the same shape, a generic type used with a borrow that is not `'static`, holding a `Box`.
#[derive(Sendable)]
pub struct R74Good<T> {
    pub value: T,
    pub tag: Tag74,
}
fn r74_is_sendable<T: Sendable>() {}
/// `R74Good<&'a u8>` is `Sendable` for any `'a`: a derive that bounds
/// parameters by `'static` refuses it.
pub fn r74_borrowed<'a>(_: &'a u8) {
    r74_is_sendable::<R74Good<&'a u8>>();
}

// R75Good: the same shape, the type's own name, in an enum, holding a `Box`.
#[derive(Sendable)]
pub enum R75Good {
    Leaf(Tag75),
    Owned(Box<R75Good>),
}

/// A trait of this module's own is named `Sendable`, and every type has it: a derive that names the trait without its crate's path implements, or checks, this one.
mod shadow_trait {
    use super::*;

    /// Not the crate's trait: every type has this one.
    pub unsafe trait Sendable {}
    unsafe impl<T: ?Sized> Sendable for T {}

    // R53: a generic struct (bounds, a default, a `where` clause), whose field 5 of 5 holds an `Rc` inside `(u8, _)`, under `#[cfg(all())]`.
    #[derive(send_marker::Sendable)]
    pub struct R53<T: Clone, U = u8>
    where
        U: Default,
    {
        pub field_0: T,
        pub field_1: Vec<U>,
        pub field_2: (u8, u8),
        pub field_3: &'static std::sync::Mutex<u8>,
        #[cfg(all())]
        pub field_4: (u8, std::rc::Rc<Tag53<T>>),
    }
    //~? ERROR E0277 "Tag53"

    // R54: a struct with a lifetime, whose field 4 of 4 holds an `rc::Weak` inside `[_; 2]`, under `#[sendable(skip)]`.
    #[derive(send_marker::Sendable)]
    pub struct R54<'a> {
        pub field_0: &'a str,
        pub field_1: [u8; 2],
        pub field_2: i64,
        #[sendable(skip)]
        pub field_3: [std::rc::Weak<Tag54>; 2],
    }
    //~? ERROR E0277 "Tag54"
}

/// A struct of this module's own is named `Sendable`: a derive that names the trait without its crate's path names this struct.
mod shadow_type {
    use super::*;

    /// Not the crate's trait: a plain struct.
    pub struct Sendable;

    // R55: a struct with a const parameter, whose field 2 of 4 holds a `*const` inside `Result<String, _>`.
    #[derive(send_marker::Sendable)]
    pub struct R55<const N: usize>(
        pub [u8; N],
        pub Result<String, *const Tag55>,
        pub Result<String, u8>,
        pub Vec<u16>,
    );
    //~? ERROR E0277 "Tag55"

    // R56: a generic enum with a `where` clause, whose field 2 of 4 holds a `*mut` inside `std::collections::HashMap<u16, _>`, under a doc comment.
    #[derive(send_marker::Sendable)]
    pub enum R56<T>
    where
        T: Copy + Default,
    {
        Many {
            field_0: T,
            /// A doc comment is an attribute too.
            field_1: std::collections::HashMap<u16, *mut Tag56<T>>,
            field_2: std::collections::HashMap<u16, u8>,
            field_3: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
        },
        Done,
    }
    //~? ERROR E0277 "Tag56"
}

/// A module of this module's own is named `send_marker`, with a trait `Sendable` that every type has: a derive that writes `send_marker::Sendable` without the leading `::` names this one.
mod shadow_crate {
    use super::*;

    /// Not the crate: a module with a trait every type has.
    mod send_marker {
        pub unsafe trait Sendable {}
        unsafe impl<T: ?Sized> Sendable for T {}
        pub mod __derive {
            pub trait FieldIsSendable {
                const CHECKED: () = ();
            }
            impl<T: ?Sized> FieldIsSendable for T {}
        }
    }

    // R57: a struct with named fields, whose field 2 of 3 holds a `NonNull` inside `std::sync::Mutex<_>`, under `#[doc = "a doc attribute"]`.
    #[derive(::send_marker::Sendable)]
    pub struct R57 {
        pub field_0: std::sync::Mutex<u8>,
        #[doc = "a doc attribute"]
        pub field_1: std::sync::Mutex<std::ptr::NonNull<Tag57>>,
        pub field_2: std::collections::VecDeque<char>,
    }
    //~? ERROR E0277 "Tag57"

    // R58: a tuple struct, whose field 2 of 3 holds a shared `Cell` inside `Option<Box<(char, _)>>`, under `#[doc(hidden)]`.
    #[derive(::send_marker::Sendable)]
    pub struct R58(
        pub Option<Box<(char, u8)>>,
        #[doc(hidden)]
        pub Option<Box<(char, &'static std::cell::Cell<Tag58>)>>,
        pub std::time::Duration,
    );
    //~? ERROR E0277 "Tag58"
}

/// Each `same_name_N` module defines a type `Job`: a derive that remembers which types it has checked by their names checks only one of them.
mod same_name_1 {
    use super::*;


    // Job: an enum, whose field 3 of 3 holds a shared `RefCell` inside `std::collections::VecDeque<[_; 1]>`, under `#[cfg_attr(all(), doc = "skip")]`.
    #[derive(Sendable)]
    pub enum Job {
        Idle,
        /// A documented variant.
        Variant0(
            std::collections::VecDeque<[u8; 1]>,
        ),
        Variant1 {
            field: Box<Option<(u8, [char; 2])>>,
        },
        /// A documented variant.
        Variant2(
            #[cfg_attr(all(), doc = "skip")]
            std::collections::VecDeque<[&'static std::cell::RefCell<Tag59>; 1]>,
        ),
    }
    //~? ERROR E0277 "Tag59"
}

mod same_name_2 {
    use super::*;


    // Job: a generic struct (bounds, a default, a `where` clause), whose field 5 of 5 holds a `MutexGuard` inside `std::sync::Arc<std::sync::Mutex<_>>`, under `#[allow(clippy::type_complexity)]`.
    #[derive(Sendable)]
    pub struct Job<T: Clone, U = u8>
    where
        U: Default,
    {
        pub field_0: T,
        pub field_1: Vec<U>,
        pub field_2: std::sync::Arc<std::sync::Mutex<u8>>,
        pub field_3: String,
        #[allow(clippy::type_complexity)]
        pub field_4: std::sync::Arc<std::sync::Mutex<std::sync::MutexGuard<'static, Tag60>>>,
    }
    //~? ERROR E0277 "Tag60"
}

mod same_name_3 {
    use super::*;


    // Job: a struct with a lifetime, whose field 2 of 4 holds a `RefMut`, under `#[rustfmt::skip]`.
    #[derive(Sendable)]
    pub struct Job<'a> {
        pub field_0: &'a str,
        #[rustfmt::skip]
        pub field_1: std::cell::RefMut<'a, Tag61>,
        pub field_2: Option<u8>,
        pub field_3: (u8, String, [char; 2]),
    }
    //~? ERROR E0277 "Tag61"
}

fn main() {}
