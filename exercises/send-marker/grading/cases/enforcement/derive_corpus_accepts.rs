//! Proves enforcement: `#[derive(Sendable)]` implements the trait for every
//! type of a corpus whose fields are all `Sendable`: structs (named, tuple,
//! unit, empty), enums, recursive types, type parameters with bounds,
//! defaults and `where` clauses, lifetimes and const parameters, fields of
//! the course's `Sendable` types nested in `Option`, `Box`, tuples, arrays,
//! `Vec`, maps and locks, under doc comments, `cfg_attr` and tool
//! attributes; types that share a name in different modules; and types
//! derived where a local trait, type or module named `Sendable` or
//! `send_marker` shadows the real one. And the generic ones, instantiated
//! with a parameter that is not `Sendable`, are not. The compiler answers
//! for each type in the observing program; the judge checks each answer.
//!
//! Written by `cargo run -p xsafe-grading-proofs --bin corpus -- --write`
//! (ci/proofs/src/corpus.rs): do not edit by hand.
use crate::support::{Answers, assert_all_sendable, assert_none_sendable, sendable_probes};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// The derived types: only the observing program has the derive.
#[cfg(not(xsafe_judge))]
#[allow(dead_code, unused_imports, clippy::type_complexity)]
mod types {
    use send_marker::Sendable;

    /// A `Token` that is `Sendable` when its contents are.
    pub mod alike {
        use super::*;

        #[derive(Sendable)]
        pub struct Token<T>(pub T);
    }

    // A01: a struct with named fields.
    #[derive(Sendable)]
    pub struct A01 {
        pub field_0: u8,
        pub field_1: [Option<String>; 2],
        pub field_2: std::collections::VecDeque<[std::collections::VecDeque<char>; 1]>,
    }

    // A02: a tuple struct.
    #[derive(Sendable)]
    pub struct A02(
        pub Option<char>,
        /// A doc comment is an attribute too.
        pub Result<String, [u64; 4]>,
        pub std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Sender<String>>>,
    );

    // A03: an enum.
    #[derive(Sendable)]
    pub enum A03 {
        Idle,
        Variant0(
            Box<String>,
        ),
        Variant1 {
            field: std::collections::HashMap<u16, std::cell::Cell<u64>>,
        },
        Variant2(
            #[doc = "a doc attribute"]
            std::marker::PhantomData<String>,
        ),
    }

    // A04: a generic struct (bounds, a default, a `where` clause).
    #[derive(Sendable)]
    pub struct A04<T: Clone, U = u8>
    where
        U: Default,
    {
        pub field_0: T,
        pub field_1: Vec<U>,
        #[doc(hidden)]
        pub field_2: Vec<Box<str>>,
        pub field_3: std::sync::Mutex<std::collections::HashMap<String, u32>>,
        pub field_4: Option<&'static std::sync::Mutex<u8>>,
    }

    // A05: a struct with a lifetime.
    #[derive(Sendable)]
    pub struct A05<'a> {
        pub field_0: &'a str,
        pub field_1: (u8, Result<u32, String>),
        #[cfg_attr(all(), doc = "skip")]
        pub field_2: Option<Box<(char, std::collections::BTreeSet<i32>)>>,
        pub field_3: Box<&'a std::sync::atomic::AtomicBool>,
    }

    // A06: a struct with a const parameter.
    #[derive(Sendable)]
    pub struct A06<const N: usize>(
        pub [u8; N],
        pub [std::sync::Arc<std::sync::Mutex<Vec<String>>>; 2],
        pub std::collections::VecDeque<[std::sync::mpsc::Receiver<u8>; 1]>,
        #[allow(clippy::type_complexity)]
        pub Vec<u8>,
    );

    // A07: a generic enum with a `where` clause.
    #[derive(Sendable)]
    pub enum A07<T>
    where
        T: Copy + Default,
    {
        Idle,
        Variant0(
            T,
        ),
        Variant1 {
            #[rustfmt::skip]
            field: Result<String, std::cell::RefCell<String>>,
        },
        Variant2(
            std::sync::Arc<std::sync::Mutex<std::time::Duration>>,
        ),
        Variant3 {
            field: (u8, char),
        },
    }

    // A08: a struct with a lifetime, a `?Sized` parameter and a const parameter.
    #[derive(Sendable)]
    pub struct A08<'a, T: ?Sized + Sync, const N: usize>
    where
        T: 'a,
    {
        pub field_0: &'a T,
        pub field_1: [u16; N],
        pub field_2: std::collections::HashMap<u16, std::collections::BTreeMap<u8, Vec<u8>>>,
        #[cfg(all())]
        pub field_3: &'a mut std::cell::Cell<u8>,
        pub field_4: [String; 2],
    }

    // A09: a struct with named fields.
    #[derive(Sendable)]
    pub struct A09 {
        pub field_0: std::sync::Mutex<std::collections::HashSet<u64>>,
        pub field_1: Option<alike::Token<u8>>,
        pub field_2: Result<String, Box<str>>,
    }

    // A10: a tuple struct.
    #[derive(Sendable)]
    pub struct A10(
        /// A doc comment is an attribute too.
        pub Option<Box<(char, std::sync::mpsc::SyncSender<Box<str>>)>>,
        pub Box<i64>,
        pub std::collections::HashMap<u16, Result<u32, String>>,
    );

    // A11: an enum.
    #[derive(Sendable)]
    pub enum A11 {
        Idle,
        /// A documented variant.
        Variant0(
            std::collections::VecDeque<[std::time::Instant; 1]>,
        ),
        Variant1 {
            #[doc = "a doc attribute"]
            field: Vec<f64>,
        },
        /// A documented variant.
        Variant2(
            std::sync::Mutex<std::sync::Arc<std::sync::Mutex<Vec<String>>>>,
        ),
    }

    // A12: a generic struct (bounds, a default, a `where` clause).
    #[derive(Sendable)]
    pub struct A12<T: Clone, U = u8>
    where
        U: Default,
    {
        pub field_0: T,
        pub field_1: Vec<U>,
        pub field_2: std::sync::Arc<std::sync::Mutex<&'static [u16]>>,
        pub field_3: (u8, &'static str),
        #[doc(hidden)]
        pub field_4: Option<Box<(char, std::cell::RefCell<String>)>>,
    }

    // A13: a struct with a lifetime.
    #[derive(Sendable)]
    pub struct A13<'a> {
        pub field_0: &'a str,
        #[cfg_attr(all(), doc = "skip")]
        pub field_1: Box<Option<(u8, [char; 2])>>,
        pub field_2: [Box<[u32]>; 2],
        pub field_3: std::collections::VecDeque<[std::collections::BTreeMap<u8, Vec<u8>>; 1]>,
    }

    // A14: a struct with a const parameter.
    #[derive(Sendable)]
    pub struct A14<const N: usize>(
        pub [u8; N],
        pub Option<bool>,
        #[allow(clippy::type_complexity)]
        pub Result<String, (u8, String, [char; 2])>,
        pub std::sync::Arc<std::sync::Mutex<std::collections::HashSet<u64>>>,
    );

    // A15: a generic enum with a `where` clause.
    #[derive(Sendable)]
    pub enum A15<T>
    where
        T: Copy + Default,
    {
        Idle,
        Variant0(
            T,
        ),
        Variant1 {
            field: Box<usize>,
        },
        Variant2(
            std::collections::HashMap<u16, std::sync::Arc<std::sync::atomic::AtomicBool>>,
        ),
        Variant3 {
            #[rustfmt::skip]
            field: std::sync::mpsc::SyncSender<Box<str>>,
        },
    }

    // A16: a struct with a lifetime, a `?Sized` parameter and a const parameter.
    #[derive(Sendable)]
    pub struct A16<'a, T: ?Sized + Sync, const N: usize>
    where
        T: 'a,
    {
        pub field_0: &'a T,
        pub field_1: [u16; N],
        #[cfg(all())]
        pub field_2: Vec<Vec<u16>>,
        pub field_3: std::sync::Mutex<std::sync::RwLock<u8>>,
        pub field_4: Option<std::time::Instant>,
    }

    // A17: a struct with named fields.
    #[derive(Sendable)]
    pub struct A17 {
        pub field_0: (u8, Option<String>),
        pub field_1: Option<Box<(char, std::collections::VecDeque<char>)>>,
        pub field_2: Box<&'static [u16]>,
    }

    // A18: a tuple struct.
    #[derive(Sendable)]
    pub struct A18(
        pub [[u64; 4]; 2],
        pub std::collections::VecDeque<[std::sync::mpsc::Sender<String>; 1]>,
        /// A doc comment is an attribute too.
        pub Vec<Box<Option<(u8, [char; 2])>>>,
    );

    // A19: an enum.
    #[derive(Sendable)]
    pub enum A19 {
        Idle,
        Variant0(
            #[doc = "a doc attribute"]
            Result<String, std::cell::Cell<u64>>,
        ),
        Variant1 {
            field: std::sync::Arc<std::sync::Mutex<std::marker::PhantomData<String>>>,
        },
        Variant2(
            (u8, bool),
        ),
    }

    // A20: a generic struct (bounds, a default, a `where` clause).
    #[derive(Sendable)]
    pub struct A20<T: Clone, U = u8>
    where
        U: Default,
    {
        pub field_0: T,
        pub field_1: Vec<U>,
        pub field_2: std::collections::HashMap<u16, std::collections::HashMap<String, u32>>,
        #[doc(hidden)]
        pub field_3: &'static std::sync::Mutex<u8>,
        pub field_4: [usize; 2],
    }

    // A21: a struct with a lifetime.
    #[derive(Sendable)]
    pub struct A21<'a> {
        pub field_0: &'a str,
        pub field_1: std::sync::Mutex<std::collections::BTreeSet<i32>>,
        pub field_2: Option<&'a std::sync::atomic::AtomicBool>,
        #[cfg_attr(all(), doc = "skip")]
        pub field_3: Result<String, Vec<u16>>,
    }

    // A22: a struct with a const parameter.
    #[derive(Sendable)]
    pub struct A22<const N: usize>(
        pub [u8; N],
        #[allow(clippy::type_complexity)]
        pub Option<Box<(char, std::sync::mpsc::Receiver<u8>)>>,
        pub Box<u8>,
        pub std::collections::HashMap<u16, Option<String>>,
    );

    // A23: a generic enum with a `where` clause.
    #[derive(Sendable)]
    pub enum A23<T>
    where
        T: Copy + Default,
    {
        Idle,
        /// A documented variant.
        Variant0(
            T,
        ),
        Variant1 {
            field: std::collections::VecDeque<[std::time::Duration; 1]>,
        },
        /// A documented variant.
        Variant2(
            #[rustfmt::skip]
            Vec<char>,
        ),
        Variant3 {
            field: std::sync::Mutex<[u64; 4]>,
        },
    }

    // A24: a struct with a lifetime, a `?Sized` parameter and a const parameter.
    #[derive(Sendable)]
    pub struct A24<'a, T: ?Sized + Sync, const N: usize>
    where
        T: 'a,
    {
        pub field_0: &'a T,
        pub field_1: [u16; N],
        pub field_2: std::sync::Arc<std::sync::Mutex<&'a mut std::cell::Cell<u8>>>,
        pub field_3: (u8, String),
        #[cfg(all())]
        pub field_4: Option<Box<(char, std::cell::Cell<u64>)>>,
    }

    // A25: a struct with named fields.
    #[derive(Sendable)]
    pub struct A25 {
        pub field_0: alike::Token<u8>,
        pub field_1: [Box<str>; 2],
        pub field_2: std::collections::VecDeque<[std::collections::HashMap<String, u32>; 1]>,
    }

    // A26: a tuple struct.
    #[derive(Sendable)]
    pub struct A26(
        pub Option<i64>,
        /// A doc comment is an attribute too.
        pub Result<String, Result<u32, String>>,
        pub std::sync::Arc<std::sync::Mutex<std::collections::BTreeSet<i32>>>,
    );

    // A27: an enum.
    #[derive(Sendable)]
    pub enum A27 {
        Idle,
        Variant0(
            Box<f64>,
        ),
        Variant1 {
            field: std::collections::HashMap<u16, std::sync::Arc<std::sync::Mutex<Vec<String>>>>,
        },
        Variant2(
            #[doc = "a doc attribute"]
            std::sync::mpsc::Receiver<u8>,
        ),
    }

    // A28: a generic struct (bounds, a default, a `where` clause).
    #[derive(Sendable)]
    pub struct A28<T: Clone, U = u8>
    where
        U: Default,
    {
        pub field_0: T,
        pub field_1: Vec<U>,
        #[doc(hidden)]
        pub field_2: Vec<&'static str>,
        pub field_3: std::sync::Mutex<std::cell::RefCell<String>>,
        pub field_4: Option<std::time::Duration>,
    }

    // A29: a struct with a lifetime.
    #[derive(Sendable)]
    pub struct A29<'a> {
        pub field_0: &'a str,
        pub field_1: (u8, Box<[u32]>),
        #[cfg_attr(all(), doc = "skip")]
        pub field_2: Option<Box<(char, std::collections::BTreeMap<u8, Vec<u8>>)>>,
        pub field_3: Box<&'a mut std::cell::Cell<u8>>,
    }

    // A30: a struct with a const parameter.
    #[derive(Sendable)]
    pub struct A30<const N: usize>(
        pub [u8; N],
        pub [(u8, String, [char; 2]); 2],
        pub std::collections::VecDeque<[std::collections::HashSet<u64>; 1]>,
        #[allow(clippy::type_complexity)]
        pub Vec<alike::Token<u8>>,
    );

    // A31: a generic enum with a `where` clause.
    #[derive(Sendable)]
    pub enum A31<T>
    where
        T: Copy + Default,
    {
        Idle,
        Variant0(
            T,
        ),
        Variant1 {
            #[rustfmt::skip]
            field: Result<String, std::sync::Arc<std::sync::atomic::AtomicBool>>,
        },
        Variant2(
            std::sync::Arc<std::sync::Mutex<std::sync::mpsc::SyncSender<Box<str>>>>,
        ),
        Variant3 {
            field: (u8, i64),
        },
    }

    // A32: a struct with a lifetime, a `?Sized` parameter and a const parameter.
    #[derive(Sendable)]
    pub struct A32<'a, T: ?Sized + Sync, const N: usize>
    where
        T: 'a,
    {
        pub field_0: &'a T,
        pub field_1: [u16; N],
        pub field_2: std::collections::HashMap<u16, std::sync::RwLock<u8>>,
        #[cfg(all())]
        pub field_3: std::time::Instant,
        pub field_4: [f64; 2],
    }

    // A33: a struct with named fields.
    #[derive(Sendable)]
    pub struct A33 {
        pub field_0: std::sync::Mutex<std::collections::VecDeque<char>>,
        pub field_1: Option<&'static [u16]>,
        pub field_2: Result<String, &'static str>,
    }

    // A34: a tuple struct.
    #[derive(Sendable)]
    pub struct A34(
        /// A doc comment is an attribute too.
        pub Option<Box<(char, std::sync::mpsc::Sender<String>)>>,
        pub Box<Box<Option<(u8, [char; 2])>>>,
        pub std::collections::HashMap<u16, Box<[u32]>>,
    );

    // A35: an enum.
    #[derive(Sendable)]
    pub enum A35 {
        Idle,
        /// A documented variant.
        Variant0(
            std::collections::VecDeque<[std::marker::PhantomData<String>; 1]>,
        ),
        Variant1 {
            #[doc = "a doc attribute"]
            field: Vec<bool>,
        },
        /// A documented variant.
        Variant2(
            std::sync::Mutex<(u8, String, [char; 2])>,
        ),
    }

    // A36: a generic struct (bounds, a default, a `where` clause).
    #[derive(Sendable)]
    pub struct A36<T: Clone, U = u8>
    where
        U: Default,
    {
        pub field_0: T,
        pub field_1: Vec<U>,
        pub field_2: std::sync::Arc<std::sync::Mutex<&'static std::sync::Mutex<u8>>>,
        pub field_3: (u8, usize),
        #[doc(hidden)]
        pub field_4: Option<Box<(char, std::sync::Arc<std::sync::atomic::AtomicBool>)>>,
    }

    // A37: a struct with a lifetime.
    #[derive(Sendable)]
    pub struct A37<'a> {
        pub field_0: &'a str,
        #[cfg_attr(all(), doc = "skip")]
        pub field_1: &'a std::sync::atomic::AtomicBool,
        pub field_2: [Vec<u16>; 2],
        pub field_3: std::collections::VecDeque<[std::sync::RwLock<u8>; 1]>,
    }

    // A38: a struct with a const parameter.
    #[derive(Sendable)]
    pub struct A38<const N: usize>(
        pub [u8; N],
        pub Option<u8>,
        #[allow(clippy::type_complexity)]
        pub Result<String, Option<String>>,
        pub std::sync::Arc<std::sync::Mutex<std::collections::VecDeque<char>>>,
    );

    // A39: a generic enum with a `where` clause.
    #[derive(Sendable)]
    pub enum A39<T>
    where
        T: Copy + Default,
    {
        Idle,
        Variant0(
            T,
        ),
        Variant1 {
            field: Box<char>,
        },
        Variant2(
            std::collections::HashMap<u16, [u64; 4]>,
        ),
        Variant3 {
            #[rustfmt::skip]
            field: std::sync::mpsc::Sender<String>,
        },
    }

    // A40: a struct with a lifetime, a `?Sized` parameter and a const parameter.
    #[derive(Sendable)]
    pub struct A40<'a, T: ?Sized + Sync, const N: usize>
    where
        T: 'a,
    {
        pub field_0: &'a T,
        pub field_1: [u16; N],
        #[cfg(all())]
        pub field_2: Vec<String>,
        pub field_3: std::sync::Mutex<std::cell::Cell<u64>>,
        pub field_4: Option<std::marker::PhantomData<String>>,
    }

    // A41: a struct with named fields.
    #[derive(Sendable)]
    pub struct A41 {
        pub field_0: (u8, Box<str>),
        pub field_1: Option<Box<(char, std::collections::HashMap<String, u32>)>>,
        pub field_2: Box<&'static std::sync::Mutex<u8>>,
    }

    // A42: a tuple struct.
    #[derive(Sendable)]
    pub struct A42(
        pub [Result<u32, String>; 2],
        pub std::collections::VecDeque<[std::collections::BTreeSet<i32>; 1]>,
        /// A doc comment is an attribute too.
        pub Vec<&'static std::sync::atomic::AtomicBool>,
    );

    // A43: an enum.
    #[derive(Sendable)]
    pub enum A43 {
        Idle,
        Variant0(
            #[doc = "a doc attribute"]
            Result<String, std::sync::Arc<std::sync::Mutex<Vec<String>>>>,
        ),
        Variant1 {
            field: std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Receiver<u8>>>,
        },
        Variant2(
            (u8, u8),
        ),
    }

    // A44: a generic struct (bounds, a default, a `where` clause).
    #[derive(Sendable)]
    pub struct A44<T: Clone, U = u8>
    where
        U: Default,
    {
        pub field_0: T,
        pub field_1: Vec<U>,
        pub field_2: std::collections::HashMap<u16, std::cell::RefCell<String>>,
        #[doc(hidden)]
        pub field_3: std::time::Duration,
        pub field_4: [char; 2],
    }

    // A45: a struct with a lifetime.
    #[derive(Sendable)]
    pub struct A45<'a> {
        pub field_0: &'a str,
        pub field_1: std::sync::Mutex<std::collections::BTreeMap<u8, Vec<u8>>>,
        pub field_2: Option<&'a mut std::cell::Cell<u8>>,
        #[cfg_attr(all(), doc = "skip")]
        pub field_3: Result<String, String>,
    }

    // A46: a struct with a const parameter.
    #[derive(Sendable)]
    pub struct A46<const N: usize>(
        pub [u8; N],
        #[allow(clippy::type_complexity)]
        pub Option<Box<(char, std::collections::HashSet<u64>)>>,
        pub Box<alike::Token<u8>>,
        pub std::collections::HashMap<u16, Box<str>>,
    );

    // A47: a generic enum with a `where` clause.
    #[derive(Sendable)]
    pub enum A47<T>
    where
        T: Copy + Default,
    {
        Idle,
        /// A documented variant.
        Variant0(
            T,
        ),
        Variant1 {
            field: std::collections::VecDeque<[std::sync::mpsc::SyncSender<Box<str>>; 1]>,
        },
        /// A documented variant.
        Variant2(
            #[rustfmt::skip]
            Vec<i64>,
        ),
        Variant3 {
            field: std::sync::Mutex<Result<u32, String>>,
        },
    }

    // A48: a struct with a lifetime, a `?Sized` parameter and a const parameter.
    #[derive(Sendable)]
    pub struct A48<'a, T: ?Sized + Sync, const N: usize>
    where
        T: 'a,
    {
        pub field_0: &'a T,
        pub field_1: [u16; N],
        pub field_2: std::sync::Arc<std::sync::Mutex<std::time::Instant>>,
        pub field_3: (u8, f64),
        #[cfg(all())]
        pub field_4: Option<Box<(char, std::sync::Arc<std::sync::Mutex<Vec<String>>>)>>,
    }

    // Types that need no field checked, recursive types, and fields that
    // `cfg` removes before the derive sees them.
    #[derive(Sendable)]
    pub struct Unit;

    #[derive(Sendable)]
    pub struct Empty {}

    #[derive(Sendable)]
    pub struct EmptyTuple();

    #[derive(Sendable)]
    pub enum NoVariants {}

    #[derive(Sendable)]
    pub enum Flags {
        On,
        Off,
    }

    #[derive(Sendable)]
    pub struct Tree {
        pub value: u8,
        pub children: Vec<Tree>,
        pub parent: Option<Box<Tree>>,
    }

    #[derive(Sendable)]
    pub enum List<T> {
        Nil,
        Cons(T, Box<List<T>>),
    }

    #[derive(Sendable)]
    pub struct CfgRemoved {
        pub kept: u8,
        #[cfg(any())]
        pub removed: std::rc::Rc<u8>,
    }

    /// A trait of this module's own is named `Sendable`, and every type has it: a derive that names the trait without its crate's path implements, or checks, this one.
    pub mod shadow_trait {
        use super::*;

        /// Not the crate's trait: every type has this one.
        pub unsafe trait Sendable {}
        unsafe impl<T: ?Sized> Sendable for T {}

        // A49: a struct with named fields.
        #[derive(send_marker::Sendable)]
        pub struct A49 {
            pub field_0: &'static [u16],
            pub field_1: [&'static str; 2],
            pub field_2: std::collections::VecDeque<[std::cell::RefCell<String>; 1]>,
        }

        // A50: a tuple struct.
        #[derive(send_marker::Sendable)]
        pub struct A50(
            pub Option<Box<Option<(u8, [char; 2])>>>,
            /// A doc comment is an attribute too.
            pub Result<String, Box<[u32]>>,
            pub std::sync::Arc<std::sync::Mutex<std::collections::BTreeMap<u8, Vec<u8>>>>,
        );
    }

    /// A struct of this module's own is named `Sendable`: a derive that names the trait without its crate's path names this struct.
    pub mod shadow_type {
        use super::*;

        /// Not the crate's trait: a plain struct.
        pub struct Sendable;

        // A51: an enum.
        #[derive(send_marker::Sendable)]
        pub enum A51 {
            Idle,
            Variant0(
                Box<bool>,
            ),
            Variant1 {
                field: std::collections::HashMap<u16, (u8, String, [char; 2])>,
            },
            Variant2(
                #[doc = "a doc attribute"]
                std::collections::HashSet<u64>,
            ),
        }

        // A52: a generic struct (bounds, a default, a `where` clause).
        #[derive(send_marker::Sendable)]
        pub struct A52<T: Clone, U = u8>
        where
            U: Default,
        {
            pub field_0: T,
            pub field_1: Vec<U>,
            #[doc(hidden)]
            pub field_2: Vec<usize>,
            pub field_3: std::sync::Mutex<std::sync::Arc<std::sync::atomic::AtomicBool>>,
            pub field_4: Option<std::sync::mpsc::SyncSender<Box<str>>>,
        }
    }

    /// A module of this module's own is named `send_marker`, with a trait `Sendable` that every type has: a derive that writes `send_marker::Sendable` without the leading `::` names this one.
    pub mod shadow_crate {
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

        // A53: a struct with a lifetime.
        #[derive(::send_marker::Sendable)]
        pub struct A53<'a> {
            pub field_0: &'a str,
            pub field_1: (u8, Vec<u16>),
            #[cfg_attr(all(), doc = "skip")]
            pub field_2: Option<Box<(char, std::sync::RwLock<u8>)>>,
            pub field_3: Box<std::time::Instant>,
        }

        // A54: a struct with a const parameter.
        #[derive(::send_marker::Sendable)]
        pub struct A54<const N: usize>(
            pub [u8; N],
            pub [Option<String>; 2],
            pub std::collections::VecDeque<[std::collections::VecDeque<char>; 1]>,
            #[allow(clippy::type_complexity)]
            pub Vec<&'static [u16]>,
        );
    }

    /// Each `same_name_N` module defines a type `Job`: a derive that remembers which types it has checked by their names checks only one of them.
    pub mod same_name_1 {
        use super::*;



        // Job: a generic enum with a `where` clause.
        #[derive(Sendable)]
        pub enum Job<T>
        where
            T: Copy + Default,
        {
            Idle,
            Variant0(
                T,
            ),
            Variant1 {
                #[rustfmt::skip]
                field: Result<String, [u64; 4]>,
            },
            Variant2(
                std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Sender<String>>>,
            ),
            Variant3 {
                field: (u8, Box<Option<(u8, [char; 2])>>),
            },
        }
    }

    /// As above.
    pub mod same_name_2 {
        use super::*;



        // Job: a struct with a lifetime, a `?Sized` parameter and a const parameter.
        #[derive(Sendable)]
        pub struct Job<'a, T: ?Sized + Sync, const N: usize>
        where
            T: 'a,
        {
            pub field_0: &'a T,
            pub field_1: [u16; N],
            pub field_2: std::collections::HashMap<u16, std::cell::Cell<u64>>,
            #[cfg(all())]
            pub field_3: std::marker::PhantomData<String>,
            pub field_4: [bool; 2],
        }
    }

    /// As above.
    pub mod same_name_3 {
        use super::*;



        // Job: a struct with named fields.
        #[derive(Sendable)]
        pub struct Job {
            pub field_0: std::sync::Mutex<std::collections::HashMap<String, u32>>,
            pub field_1: Option<&'static std::sync::Mutex<u8>>,
            pub field_2: Result<String, usize>,
        }
    }
}

sendable_probes! {
    mod plain_shapes {
        types::A01,
        types::A02,
        types::A03,
        types::A09,
        types::A10,
        types::A11,
        types::A17,
        types::A18,
        types::A19,
        types::A25,
        types::A26,
        types::A27,
        types::A33,
        types::A34,
        types::A35,
        types::A41,
        types::A42,
        types::A43,
        types::Unit,
        types::Empty,
        types::EmptyTuple,
        types::NoVariants,
        types::Flags,
        types::Tree,
        types::List<String>,
        types::CfgRemoved,
    }
}

sendable_probes! {
    mod generic_shapes {
        types::A04<String>,
        types::A05<'static>,
        types::A06<3>,
        types::A07<u32>,
        types::A08<'static, str, 2>,
        types::A12<String>,
        types::A13<'static>,
        types::A14<3>,
        types::A15<u32>,
        types::A16<'static, str, 2>,
        types::A20<String>,
        types::A21<'static>,
        types::A22<3>,
        types::A23<u32>,
        types::A24<'static, str, 2>,
        types::A28<String>,
        types::A29<'static>,
        types::A30<3>,
        types::A31<u32>,
        types::A32<'static, str, 2>,
        types::A36<String>,
        types::A37<'static>,
        types::A38<3>,
        types::A39<u32>,
        types::A40<'static, str, 2>,
        types::A44<String>,
        types::A45<'static>,
        types::A46<3>,
        types::A47<u32>,
        types::A48<'static, str, 2>,
    }
}

sendable_probes! {
    mod shadowed_and_same_names {
        types::shadow_trait::A49,
        types::shadow_trait::A50,
        types::shadow_type::A51,
        types::shadow_type::A52<String>,
        types::shadow_crate::A53<'static>,
        types::shadow_crate::A54<3>,
        types::same_name_1::Job<u32>,
        types::same_name_2::Job<'static, str, 2>,
        types::same_name_3::Job,
    }
}

sendable_probes! {
    mod generic_instances_that_must_not_move {
        types::A04<std::rc::Rc<u8>>,
        types::A07<std::marker::PhantomData<*const u8>>,
        types::A08<'static, std::sync::MutexGuard<'static, u8>, 2>,
        types::A12<std::rc::Rc<u8>>,
        types::A15<std::marker::PhantomData<*const u8>>,
        types::A16<'static, std::sync::MutexGuard<'static, u8>, 2>,
        types::A20<std::rc::Rc<u8>>,
        types::A23<std::marker::PhantomData<*const u8>>,
        types::A24<'static, std::sync::MutexGuard<'static, u8>, 2>,
        types::A28<std::rc::Rc<u8>>,
        types::A31<std::marker::PhantomData<*const u8>>,
        types::A32<'static, std::sync::MutexGuard<'static, u8>, 2>,
        types::A36<std::rc::Rc<u8>>,
        types::A39<std::marker::PhantomData<*const u8>>,
        types::A40<'static, std::sync::MutexGuard<'static, u8>, 2>,
        types::A44<std::rc::Rc<u8>>,
        types::A47<std::marker::PhantomData<*const u8>>,
        types::A48<'static, std::sync::MutexGuard<'static, u8>, 2>,
        types::shadow_type::A52<std::rc::Rc<u8>>,
        types::same_name_1::Job<std::marker::PhantomData<*const u8>>,
        types::same_name_2::Job<'static, std::sync::MutexGuard<'static, u8>, 2>,
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    plain_shapes: Answers,
    generic_shapes: Answers,
    shadowed_and_same_names: Answers,
    generic_instances_that_must_not_move: Answers,
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    Seen {
        plain_shapes: plain_shapes::answers(),
        generic_shapes: generic_shapes::answers(),
        shadowed_and_same_names: shadowed_and_same_names::answers(),
        generic_instances_that_must_not_move: generic_instances_that_must_not_move::answers(),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    assert_all_sendable(
        plain_shapes::NAMES,
        &seen.plain_shapes,
        "every field of these types is `Sendable`, so `#[derive(Sendable)]` must implement it, whatever attributes the fields carry",
    );
    assert_all_sendable(
        generic_shapes::NAMES,
        &seen.generic_shapes,
        "every field of these types is `Sendable` for these arguments, so `#[derive(Sendable)]` must implement it, keeping the type's lifetimes, const parameters, defaults and `where` clause",
    );
    assert_all_sendable(
        shadowed_and_same_names::NAMES,
        &seen.shadowed_and_same_names,
        "these types are derived where a local `Sendable` or `send_marker` shadows the real one, or share their name with another derived type: the derive must name the crate's trait by its full path (`::send_marker::Sendable`) and check each type on its own",
    );
    assert_none_sendable(
        generic_instances_that_must_not_move::NAMES,
        &seen.generic_instances_that_must_not_move,
        "a derived type is `Sendable` only when its type parameters are: the derive must bound each of them by `Sendable`",
    );
}
