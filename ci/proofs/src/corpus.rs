//! The corpus of type definitions for `#[derive(Sendable)]` (exercise
//! `send-marker`): two grading cases written by this generator, so that the
//! derive is graded on many shapes of input rather than on a few regular
//! ones.
//!
//! * `enforcement/derive_corpus_accepts.rs` (a behaviour case): types whose
//!   every field is `Sendable`, which the derive must make `Sendable`, and
//!   instances of its generic ones with a parameter that is not, which must
//!   not be.
//! * `enforcement/derive_corpus_rejects.rs` (a compile-fail case): types
//!   with exactly one field that is not `Sendable`, each marked by a tag
//!   type of its own (`TagNN`) that the field's type mentions, and one
//!   `//~? ERROR E0277 "TagNN"` annotation per type: a derive that lets a
//!   single one of them through loses the case.
//!
//! Both mix the same ingredients: struct shapes (named, tuple, unit), enums
//! with unit, tuple and named variants, type parameters with bounds,
//! defaults and `where` clauses, lifetimes, const parameters; field types
//! from the course's impls nested in `Option`, `Box`, tuples, arrays, `Vec`,
//! maps and locks; attributes on fields and variants that a derive could
//! mistake for its own (`#[doc]`, doc comments, `cfg_attr`, tool
//! attributes, `#[sendable(skip)]`); several types, and several field types,
//! sharing one name in different modules; and modules where a trait, a
//! type or a module named `Sendable` or `send_marker` shadows the real one
//! at the derive's call site.
//!
//! The output is a pure function of the tables below: `cargo run -p
//! xsafe-grading-proofs --bin corpus -- --write` writes it, and the test
//! `tests/derive_corpus.rs` checks the checked-in files equal it.

use std::fmt::Write as _;

/// Where the accepted corpus lives, relative to the course's root.
pub const ACCEPTS: &str =
    "exercises/send-marker/grading/cases/enforcement/derive_corpus_accepts.rs";
/// Where the rejected corpus lives, relative to the course's root.
pub const REJECTS: &str =
    "exercises/send-marker/grading/cases/enforcement/derive_corpus_rejects.rs";

/// Every generated file: its path relative to the course's root, and its
/// text.
pub fn files() -> Vec<(&'static str, String)> {
    vec![(ACCEPTS, accepts()), (REJECTS, rejects())]
}

/// A field type that is not `Sendable`, around a tag type `{X}`; `{lt}` is
/// the lifetime it borrows for. The third element is a `Sendable` type
/// whose outermost name is the same (a decoy for a derive that checks one
/// field per type name), when there is one.
const POISONS: &[(&str, &str, Option<&str>)] = &[
    ("an `Rc`", "std::rc::Rc<{X}>", None),
    ("an `rc::Weak`", "std::rc::Weak<{X}>", None),
    ("a `*const`", "*const {X}", None),
    ("a `*mut`", "*mut {X}", None),
    ("a `NonNull`", "std::ptr::NonNull<{X}>", None),
    (
        "a shared `Cell`",
        "&{lt} std::cell::Cell<{X}>",
        Some("&{lt} std::sync::Mutex<u8>"),
    ),
    (
        "a shared `RefCell`",
        "&{lt} std::cell::RefCell<{X}>",
        Some("&{lt} std::cell::RefCell<u8>"),
    ),
    ("a `MutexGuard`", "std::sync::MutexGuard<{lt}, {X}>", None),
    ("a `RefMut`", "std::cell::RefMut<{lt}, {X}>", None),
    (
        "a `PhantomData` of an `Rc`",
        "std::marker::PhantomData<std::rc::Rc<{X}>>",
        Some("std::marker::PhantomData<String>"),
    ),
    (
        "an `Arc` of a `Cell`",
        "std::sync::Arc<std::cell::Cell<{X}>>",
        Some("std::sync::Arc<std::sync::Mutex<u8>>"),
    ),
    ("a type nobody declared `Sendable`", "Plain<{X}>", None),
    (
        "a `Token` that is not `Sendable` (another module has a `Token` that is)",
        "lookalike::Token<{X}>",
        Some("alike::Token<u8>"),
    ),
];

/// Field types that are `Sendable`; `{lt}` is the lifetime they borrow for.
const SENDABLES: &[&str] = &[
    "u8",
    "i64",
    "bool",
    "char",
    "f64",
    "usize",
    "String",
    "&{lt} str",
    "Vec<u16>",
    "Box<str>",
    "Box<[u32]>",
    "Option<String>",
    "Result<u32, String>",
    "(u8, String, [char; 2])",
    "[u64; 4]",
    "std::sync::Arc<std::sync::Mutex<Vec<String>>>",
    "std::sync::Arc<std::sync::atomic::AtomicBool>",
    "std::cell::Cell<u64>",
    "std::cell::RefCell<String>",
    "std::sync::RwLock<u8>",
    "std::collections::HashMap<String, u32>",
    "std::collections::BTreeMap<u8, Vec<u8>>",
    "std::collections::VecDeque<char>",
    "std::collections::BTreeSet<i32>",
    "std::collections::HashSet<u64>",
    "std::sync::mpsc::Sender<String>",
    "std::sync::mpsc::Receiver<u8>",
    "std::sync::mpsc::SyncSender<Box<str>>",
    "std::marker::PhantomData<String>",
    "std::time::Duration",
    "std::time::Instant",
    "&{lt} std::sync::Mutex<u8>",
    "&{lt} mut std::cell::Cell<u8>",
    "&{lt} [u16]",
    "&{lt} std::sync::atomic::AtomicBool",
    "alike::Token<u8>",
    "Box<Option<(u8, [char; 2])>>",
];

/// What a field type is wrapped in (`{}` is the type).
const WRAPPERS: &[&str] = &[
    "{}",
    "Option<{}>",
    "Box<{}>",
    "Vec<{}>",
    "(u8, {})",
    "[{}; 2]",
    "Result<String, {}>",
    "std::collections::HashMap<u16, {}>",
    "std::sync::Mutex<{}>",
    "Option<Box<(char, {})>>",
    "std::collections::VecDeque<[{}; 1]>",
    "std::sync::Arc<std::sync::Mutex<{}>>",
];

/// Attributes on a field. The last is not an attribute the reference's
/// derive declares: only the rejected corpus uses it.
const ATTRIBUTES: &[&str] = &[
    "",
    "/// A doc comment is an attribute too.",
    "#[doc = \"a doc attribute\"]",
    "#[doc(hidden)]",
    "#[cfg_attr(all(), doc = \"skip\")]",
    "#[allow(clippy::type_complexity)]",
    "#[rustfmt::skip]",
    "#[cfg(all())]",
    "#[sendable(skip)]",
];

/// How many of `ATTRIBUTES` the accepted corpus may use.
const ACCEPTED_ATTRIBUTES: usize = ATTRIBUTES.len() - 1;

/// The shape of a type definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Named,
    Tuple,
    Enum,
    Generic,
    Lifetime,
    ConstGeneric,
    WhereEnum,
    Mixed,
}

const SHAPES: &[Shape] = &[
    Shape::Named,
    Shape::Tuple,
    Shape::Enum,
    Shape::Generic,
    Shape::Lifetime,
    Shape::ConstGeneric,
    Shape::WhereEnum,
    Shape::Mixed,
];

impl Shape {
    fn describe(self) -> &'static str {
        match self {
            Shape::Named => "a struct with named fields",
            Shape::Tuple => "a tuple struct",
            Shape::Enum => "an enum",
            Shape::Generic => "a generic struct (bounds, a default, a `where` clause)",
            Shape::Lifetime => "a struct with a lifetime",
            Shape::ConstGeneric => "a struct with a const parameter",
            Shape::WhereEnum => "a generic enum with a `where` clause",
            Shape::Mixed => "a struct with a lifetime, a `?Sized` parameter and a const parameter",
        }
    }

    /// The lifetime its fields borrow for.
    fn lifetime(self) -> &'static str {
        match self {
            Shape::Lifetime | Shape::Mixed => "'a",
            _ => "'static",
        }
    }

    /// `(generics, where clause)` of its definition.
    fn generics(self) -> (&'static str, &'static str) {
        match self {
            Shape::Named | Shape::Tuple | Shape::Enum => ("", ""),
            Shape::Generic => ("<T: Clone, U = u8>", "where U: Default"),
            Shape::Lifetime => ("<'a>", ""),
            Shape::ConstGeneric => ("<const N: usize>", ""),
            Shape::WhereEnum => ("<T>", "where T: Copy + Default"),
            Shape::Mixed => ("<'a, T: ?Sized + Sync, const N: usize>", "where T: 'a"),
        }
    }

    /// The fields it always has, besides the corpus's.
    fn own_fields(self) -> &'static [&'static str] {
        match self {
            Shape::Named | Shape::Tuple | Shape::Enum => &[],
            Shape::Generic => &["T", "Vec<U>"],
            Shape::Lifetime => &["&'a str"],
            Shape::ConstGeneric => &["[u8; N]"],
            Shape::WhereEnum => &["T"],
            Shape::Mixed => &["&'a T", "[u16; N]"],
        }
    }

    /// The type, named with arguments for which it is `Sendable`.
    fn instance(self, path: &str) -> String {
        match self {
            Shape::Named | Shape::Tuple | Shape::Enum => path.to_owned(),
            Shape::Generic => format!("{path}<String>"),
            Shape::Lifetime => format!("{path}<'static>"),
            Shape::ConstGeneric => format!("{path}<3>"),
            Shape::WhereEnum => format!("{path}<u32>"),
            Shape::Mixed => format!("{path}<'static, str, 2>"),
        }
    }

    /// The type, with a parameter that is not `Sendable` (when it has one):
    /// the derive's bound on the parameter must make it not `Sendable`.
    fn unsendable_instance(self, path: &str) -> Option<String> {
        match self {
            Shape::Generic => Some(format!("{path}<std::rc::Rc<u8>>")),
            Shape::WhereEnum => Some(format!("{path}<std::marker::PhantomData<*const u8>>")),
            Shape::Mixed => Some(format!(
                "{path}<'static, std::sync::MutexGuard<'static, u8>, 2>"
            )),
            _ => None,
        }
    }

    fn is_enum(self) -> bool {
        matches!(self, Shape::Enum | Shape::WhereEnum)
    }

    fn is_tuple(self) -> bool {
        matches!(self, Shape::Tuple | Shape::ConstGeneric)
    }
}

/// One field: its attribute (maybe none) and its type.
struct Field {
    attribute: &'static str,
    ty: String,
}

/// Writes the definition of `name`, with `derive` as the derive's path,
/// its shape's own fields first and then `fields`. An enum puts each field
/// in a variant of its own (tuple and named variants in turn), or, every
/// fourth `turn`, all of them in one variant (a tuple one, then a named
/// one), and a unit variant first or last as `turn` says.
fn definition(shape: Shape, name: &str, derive: &str, fields: &[Field], turn: usize) -> String {
    let (generics, where_clause) = shape.generics();
    let mut all: Vec<Field> = shape
        .own_fields()
        .iter()
        .map(|ty| Field {
            attribute: "",
            ty: (*ty).to_owned(),
        })
        .collect();
    all.extend(fields.iter().map(|field| Field {
        attribute: field.attribute,
        ty: field.ty.clone(),
    }));
    let mut out = format!("#[derive({derive})]\n");
    let attribute = |out: &mut String, attribute: &str, indent: &str| {
        if !attribute.is_empty() {
            let _ = writeln!(out, "{indent}{attribute}");
        }
    };
    if shape.is_enum() {
        let _ = write!(out, "pub enum {name}{generics}");
        if where_clause.is_empty() {
            out.push_str(" {\n");
        } else {
            let _ = write!(out, "\nwhere\n    {},\n{{\n", &where_clause[6..]);
        }
        if turn.is_multiple_of(2) {
            out.push_str("    Idle,\n");
        }
        // Every fourth enum puts all its fields in one tuple variant, and
        // the next one in one named variant: a derive that checks only a
        // variant's first field lets the poison through there when it is
        // not first.
        match turn % 8 {
            3 => {
                out.push_str("    Many(\n");
                for field in &all {
                    attribute(&mut out, field.attribute, "        ");
                    let _ = writeln!(out, "        {},", field.ty);
                }
                out.push_str("    ),\n");
            }
            7 => {
                out.push_str("    Many {\n");
                for (index, field) in all.iter().enumerate() {
                    attribute(&mut out, field.attribute, "        ");
                    let _ = writeln!(out, "        field_{index}: {},", field.ty);
                }
                out.push_str("    },\n");
            }
            _ => {}
        }
        for (index, field) in all.iter().enumerate() {
            if turn % 4 == 3 {
                break;
            }
            if index % 2 == 0 {
                if turn % 3 == 1 {
                    out.push_str("    /// A documented variant.\n");
                }
                let _ = writeln!(out, "    Variant{index}(");
                attribute(&mut out, field.attribute, "        ");
                let _ = writeln!(out, "        {},\n    ),", field.ty);
            } else {
                let _ = writeln!(out, "    Variant{index} {{");
                attribute(&mut out, field.attribute, "        ");
                let _ = writeln!(out, "        field: {},\n    }},", field.ty);
            }
        }
        if turn % 2 == 1 {
            out.push_str("    Done,\n");
        }
        out.push_str("}\n");
    } else if shape.is_tuple() {
        let _ = writeln!(out, "pub struct {name}{generics}(");
        for field in &all {
            attribute(&mut out, field.attribute, "    ");
            let _ = writeln!(out, "    pub {},", field.ty);
        }
        if where_clause.is_empty() {
            out.push_str(");\n");
        } else {
            let _ = write!(out, ")\n{where_clause};\n");
        }
    } else {
        let _ = write!(out, "pub struct {name}{generics}");
        if where_clause.is_empty() {
            out.push_str(" {\n");
        } else {
            let _ = write!(out, "\nwhere\n    {},\n{{\n", &where_clause[6..]);
        }
        for (index, field) in all.iter().enumerate() {
            attribute(&mut out, field.attribute, "    ");
            let _ = writeln!(out, "    pub field_{index}: {},", field.ty);
        }
        out.push_str("}\n");
    }
    out
}

fn fill(template: &str, tag: &str, lifetime: &str) -> String {
    template.replace("{X}", tag).replace("{lt}", lifetime)
}

/// The modules of a corpus file that hold types other than the plain ones.
const SPECIAL_MODULES: &[(&str, &str)] = &[
    (
        "shadow_trait",
        "A trait of this module's own is named `Sendable`, and every type has it: a derive that names the trait without its crate's path implements, or checks, this one.",
    ),
    (
        "shadow_type",
        "A struct of this module's own is named `Sendable`: a derive that names the trait without its crate's path names this struct.",
    ),
    (
        "shadow_crate",
        "A module of this module's own is named `send_marker`, with a trait `Sendable` that every type has: a derive that writes `send_marker::Sendable` without the leading `::` names this one.",
    ),
    (
        "same_name_1",
        "Each `same_name_N` module defines a type `Job`: a derive that remembers which types it has checked by their names checks only one of them.",
    ),
    ("same_name_2", ""),
    ("same_name_3", ""),
];

/// The opening of a special module: what shadows what.
fn special_module_opening(name: &str) -> String {
    match name {
        "shadow_trait" => "    /// Not the crate's trait: every type has this one.\n    pub unsafe trait Sendable {}\n    unsafe impl<T: ?Sized> Sendable for T {}\n".to_owned(),
        "shadow_type" => "    /// Not the crate's trait: a plain struct.\n    pub struct Sendable;\n".to_owned(),
        "shadow_crate" => "    /// Not the crate: a module with a trait every type has.\n    mod send_marker {\n        pub unsafe trait Sendable {}\n        unsafe impl<T: ?Sized> Sendable for T {}\n        pub mod __derive {\n            pub trait FieldIsSendable {\n                const CHECKED: () = ();\n            }\n            impl<T: ?Sized> FieldIsSendable for T {}\n        }\n    }\n".to_owned(),
        _ => String::new(),
    }
}

/// The derive's path in a module: the shadowing modules name it through
/// the crate, the others through the `use` of the file.
fn derive_path(module: &str) -> &'static str {
    match module {
        "shadow_type" | "shadow_trait" => "send_marker::Sendable",
        "shadow_crate" => "::send_marker::Sendable",
        _ => "Sendable",
    }
}

fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|line| {
            if line.is_empty() {
                String::new()
            } else {
                format!("{by}{line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The rejected corpus: one item per entry.
struct Rejected {
    module: Option<&'static str>,
    text: String,
    tag: String,
}

/// The `index`th rejected type: one field is poisoned, the others are
/// `Sendable`; a decoy with the poison's outer name (when there is one)
/// stands before the poison or after it.
fn rejected(index: usize, module: Option<&'static str>, name: &str) -> Rejected {
    let tag = format!("Tag{:02}", index + 1);
    let (what, poison, decoy) = POISONS[index % POISONS.len()];
    let wrapper = WRAPPERS[index % WRAPPERS.len()];
    let shape = [
        Shape::Named,
        Shape::Tuple,
        Shape::Enum,
        Shape::Generic,
        Shape::Lifetime,
        Shape::ConstGeneric,
        Shape::WhereEnum,
    ][index % 7];
    let attribute = ATTRIBUTES[index % ATTRIBUTES.len()];
    let lifetime = shape.lifetime();
    // In a generic shape, a poison with no lifetime mentions `T` too: a
    // derive that skips the fields that mention a parameter misses it.
    let tag_argument =
        if matches!(shape, Shape::Generic | Shape::WhereEnum) && !poison.contains("{lt}") {
            format!("{tag}<T>")
        } else {
            tag.clone()
        };
    let poisoned = wrapper.replace("{}", &fill(poison, &tag_argument, lifetime));
    let decoy = if wrapper == "{}" {
        decoy.map(|decoy| fill(decoy, "", lifetime))
    } else {
        Some(wrapper.replace("{}", "u8"))
    };
    let filler = fill(SENDABLES[(index * 7) % SENDABLES.len()], "", lifetime);
    let position = (index / 2) % 3;
    let mut fields: Vec<Field> = vec![
        Field {
            attribute: "",
            ty: decoy.unwrap_or_else(|| "Option<u8>".to_owned()),
        },
        Field {
            attribute: "",
            ty: filler,
        },
    ];
    // The decoy stands before the poison unless the poison comes first.
    let poison_field = Field {
        attribute,
        ty: poisoned,
    };
    match position {
        0 => fields.insert(0, poison_field),
        1 => fields.insert(1, poison_field),
        _ => fields.push(poison_field),
    }
    let wrapped = if wrapper == "{}" {
        String::new()
    } else {
        format!(" inside `{}`", wrapper.replace("{}", "_"))
    };
    let attributed = match attribute {
        "" => String::new(),
        doc if doc.starts_with("///") => ", under a doc comment".to_owned(),
        attribute => format!(", under `{attribute}`"),
    };
    let own = shape.own_fields().len();
    let mut text = format!(
        "// {name}: {}, whose field {} of {} holds {what}{wrapped}{attributed}.\n",
        shape.describe(),
        own + position + 1,
        own + 3,
    );
    text.push_str(&definition(
        shape,
        name,
        derive_path(module.unwrap_or("")),
        &fields,
        index,
    ));
    let _ = writeln!(text, "//~? ERROR E0277 \"{tag}\"");
    Rejected { module, text, tag }
}

/// The shapes a field's type can take in Rust's grammar beyond a plain
/// path, each with a poisoned field (an `Rc` of the item's tag) that the
/// derive must refuse, and the same shape holding a `Sendable` type that it
/// must accept (the second list): a type from a `macro_rules!` `$t:ty` (a
/// group, to `syn`, alone or inside a generic), a parenthesised type, a
/// qualified path (`<T as Tr>::X`, to a local trait and to one of `std`), a
/// macro in type position, a trait object, a slice, an array whose length
/// is an expression, `Self`, and the type's own name. The test
/// `corpus_covers_the_field_type_grammar` checks that every kind of
/// `syn::Type` a field can have appears, rejected and accepted.
const GRAMMAR: &[(&str, &str, &str)] = &[
    (
        "a type from a macro's `$t:ty` (a group of tokens)",
        "macro_rules! {lower}_struct {\n    ($name:ident, $t:ty) => {\n        #[derive(Sendable)]\n        pub struct $name {\n            pub id: u32,\n            pub field: $t,\n        }\n    };\n}\n{lower}_struct!({name}, std::rc::Rc<{tag}>);\n",
        "{lower}_struct!({name}Good, Box<{tag}>);\n",
    ),
    (
        "a parenthesised type",
        "#[derive(Sendable)]\n#[allow(unused_parens)]\npub struct {name} {\n    pub id: u32,\n    pub field: (std::rc::Rc<{tag}>),\n}\n",
        "#[derive(Sendable)]\n#[allow(unused_parens)]\npub struct {name}Good {\n    pub id: u32,\n    pub field: (Box<{tag}>),\n}\n",
    ),
    (
        "a qualified path to an associated type",
        "pub trait {name}Holds {\n    type Inner;\n}\npub struct {name}Holder;\nimpl {name}Holds for {name}Holder {\n    type Inner = std::rc::Rc<{tag}>;\n}\n#[derive(Sendable)]\npub struct {name} {\n    pub id: u32,\n    pub field: <{name}Holder as {name}Holds>::Inner,\n}\n",
        "pub struct {name}GoodHolder;\nimpl {name}Holds for {name}GoodHolder {\n    type Inner = Box<{tag}>;\n}\n#[derive(Sendable)]\npub struct {name}Good {\n    pub id: u32,\n    pub field: <{name}GoodHolder as {name}Holds>::Inner,\n}\n",
    ),
    (
        "a macro in type position",
        "macro_rules! {lower}_shared {\n    ($t:ty) => {\n        std::rc::Rc<$t>\n    };\n}\n#[derive(Sendable)]\npub struct {name} {\n    pub id: u32,\n    pub field: {lower}_shared!({tag}),\n}\n",
        "macro_rules! {lower}_owned {\n    ($t:ty) => {\n        Box<$t>\n    };\n}\n#[derive(Sendable)]\npub struct {name}Good {\n    pub id: u32,\n    pub field: {lower}_owned!({tag}),\n}\n",
    ),
    (
        "a macro's `$t:ty` nested in generics (a group inside a path)",
        "macro_rules! {lower}_list {\n    ($name:ident, $t:ty) => {\n        #[derive(Sendable)]\n        pub struct $name {\n            pub id: u32,\n            pub items: Vec<Option<$t>>,\n        }\n    };\n}\n{lower}_list!({name}, std::rc::Rc<{tag}>);\n",
        "{lower}_list!({name}Good, Box<{tag}>);\n",
    ),
    (
        "a projection through a trait of `std`",
        "#[derive(Sendable)]\npub struct {name} {\n    pub id: u32,\n    pub field: <Vec<std::rc::Rc<{tag}>> as IntoIterator>::Item,\n}\n",
        "#[derive(Sendable)]\npub struct {name}Good {\n    pub id: u32,\n    pub field: <Vec<Box<{tag}>> as IntoIterator>::Item,\n}\n",
    ),
    (
        "a trait object",
        "#[derive(Sendable)]\npub struct {name} {\n    pub id: u32,\n    pub job: Box<dyn Fn() -> {tag}>,\n}\n",
        "/// A job that may move: `Sendable` is its supertrait, so `dyn {name}Job` is `Sendable`.\npub trait {name}Job: Sendable {}\n#[derive(Sendable)]\npub struct {name}Good {\n    pub id: u32,\n    pub job: Box<dyn {name}Job>,\n    pub tag: {tag},\n}\n",
    ),
    (
        "a slice in a box",
        "#[derive(Sendable)]\npub struct {name} {\n    pub id: u32,\n    pub items: Box<[std::rc::Rc<{tag}>]>,\n}\n",
        "#[derive(Sendable)]\npub struct {name}Good {\n    pub id: u32,\n    pub items: Box<[Box<{tag}>]>,\n}\n",
    ),
    (
        "an array whose length is a constant expression",
        "#[derive(Sendable)]\npub struct {name} {\n    pub id: u32,\n    pub items: [std::rc::Rc<{tag}>; 1 + 1],\n}\n",
        "#[derive(Sendable)]\npub struct {name}Good {\n    pub id: u32,\n    pub items: [Box<{tag}>; 2 * 2],\n}\n",
    ),
    (
        "`Self` (a list that links to itself)",
        "#[derive(Sendable)]\npub struct {name} {\n    pub value: {tag},\n    pub next: Option<std::rc::Rc<(Self, {tag})>>,\n}\n",
        "#[derive(Sendable)]\npub struct {name}Good {\n    pub value: {tag},\n    pub next: Option<Box<Self>>,\n}\n",
    ),
    (
        "`Self` in a generic type",
        "#[derive(Sendable)]\npub struct {name}<T> {\n    pub value: T,\n    pub next: Option<std::rc::Rc<(Self, {tag})>>,\n}\n",
        "#[derive(Sendable)]\npub struct {name}Good<T> {\n    pub value: T,\n    pub tag: {tag},\n    pub next: Option<Box<Self>>,\n}\n",
    ),
    (
        "a borrowed parameter (the definition implies `T: 'a`)",
        "#[derive(Sendable)]\npub struct {name}<'a, T> {\n    pub value: &'a mut T,\n    pub shared: std::rc::Rc<{tag}>,\n}\n",
        "#[derive(Sendable)]\npub struct {name}Good<'a, T> {\n    pub value: &'a mut T,\n    pub tag: {tag},\n}\n",
    ),
    (
        "a generic type used with a borrow that is not `'static`",
        "#[derive(Sendable)]\npub struct {name}<T> {\n    pub value: T,\n    pub shared: std::rc::Rc<{tag}>,\n}\n",
        "#[derive(Sendable)]\npub struct {name}Good<T> {\n    pub value: T,\n    pub tag: {tag},\n}\nfn {lower}_is_sendable<T: Sendable>() {}\n/// `{name}Good<&'a u8>` is `Sendable` for any `'a`: a derive that bounds\n/// parameters by `'static` refuses it.\npub fn {lower}_borrowed<'a>(_: &'a u8) {\n    {lower}_is_sendable::<{name}Good<&'a u8>>();\n}\n",
    ),
    (
        "the type's own name, in an enum",
        "#[derive(Sendable)]\npub enum {name} {\n    Leaf({tag}),\n    Shared(std::rc::Rc<({name}, {tag})>),\n}\n",
        "#[derive(Sendable)]\npub enum {name}Good {\n    Leaf({tag}),\n    Owned(Box<{name}Good>),\n}\n",
    ),
];

/// The `GRAMMAR` items, numbered from `first`: each rejected one, and the
/// accepted counterparts together (which must compile without an error).
fn grammar(first: usize) -> (Vec<Rejected>, String) {
    let mut rejected = Vec::new();
    let mut accepted = String::new();
    for (offset, (what, bad, good)) in GRAMMAR.iter().enumerate() {
        let index = first + offset;
        let tag = format!("Tag{:02}", index + 1);
        let name = format!("R{:02}", index + 1);
        let lower = name.to_lowercase();
        let fill = |template: &str| {
            template
                .replace("{name}", &name)
                .replace("{lower}", &lower)
                .replace("{tag}", &tag)
        };
        let mut text =
            format!("// {name}: a struct whose field's type is {what}, holding an `Rc`.\n");
        text.push_str(&fill(bad));
        let _ = writeln!(text, "//~? ERROR E0277 \"{tag}\"");
        let _ = writeln!(
            accepted,
            "\n// {name}Good: the same shape, {what}, holding a `Box`."
        );
        accepted.push_str(&fill(good));
        rejected.push(Rejected {
            module: None,
            text,
            tag,
        });
    }
    (rejected, accepted)
}

/// The compile-fail case.
fn rejects() -> String {
    let mut items: Vec<Rejected> = (0..52)
        .map(|index| rejected(index, None, &format!("R{:02}", index + 1)))
        .collect();
    let mut next = items.len();
    for (module, _) in SPECIAL_MODULES {
        let count = if module.starts_with("same_name") {
            1
        } else {
            2
        };
        for _ in 0..count {
            let name = if module.starts_with("same_name") {
                "Job".to_owned()
            } else {
                format!("R{:02}", next + 1)
            };
            items.push(rejected(next, Some(module), &name));
            next += 1;
        }
    }
    let (grammar_items, grammar_accepted) = grammar(next);
    let mut out = String::from(
        "//! Proves enforcement: `#[derive(Sendable)]` refuses every type of a\n\
         //! corpus that has one field that is not `Sendable`: a raw pointer, an\n\
         //! `Rc`, a guard, a shared `Cell`, a type nobody declared `Sendable`,\n\
         //! alone or deep inside `Option`, `Box`, tuples, arrays, `Vec`, maps and\n\
         //! locks; in every position, in structs, tuple structs, enums and generic\n\
         //! types; under attributes a derive could take for its own; in types that\n\
         //! share a name; and in modules where a local `Sendable` or `send_marker`\n\
         //! shadows the real one. Each type's field mentions a tag type of its own\n\
         //! (`TagNN`), and each tag has its annotation: a derive that lets one\n\
         //! type through loses the case.\n\
         //!\n\
         //! Written by `cargo run -p xsafe-grading-proofs --bin corpus -- --write`\n\
         //! (ci/proofs/src/corpus.rs): do not edit by hand.\n\
         #![allow(dead_code, unused_imports, clippy::type_complexity)]\n\n\
         use send_marker::Sendable;\n\n\
         /// A type that is `Send` but that nobody declared `Sendable`.\n\
         pub struct Plain<T>(pub T);\n\n\
         /// A `Token` that is `Sendable` when its contents are.\n\
         pub mod alike {\n    use super::*;\n\n    #[derive(Sendable)]\n    pub struct Token<T>(pub T);\n}\n\n\
         /// Another `Token`, which is not `Sendable`.\n\
         pub mod lookalike {\n    pub struct Token<T>(pub T);\n}\n\n\
         /// The tags: each names one rejected type in its error. They are\n\
         /// `Sendable`, so that only what holds one (an `Rc`, a raw pointer, a\n\
         /// shared `Cell`) is not: a wrong impl for it lets the type through.\n\
         macro_rules! tags {\n    \
         ($($tag:ident)*) => {\n        \
         $(\n            \
         pub struct $tag<T = ()>(std::marker::PhantomData<T>);\n            \
         // SAFETY: a tag holds nothing but a marker of `T`, which may move.\n            \
         unsafe impl<T: Sendable> Sendable for $tag<T> {}\n        \
         )*\n    \
         };\n\
         }\n\n\
         tags!(\n",
    );
    for chunk in items
        .iter()
        .chain(&grammar_items)
        .collect::<Vec<_>>()
        .chunks(8)
    {
        let tags: Vec<&str> = chunk.iter().map(|item| item.tag.as_str()).collect();
        let _ = writeln!(out, "    {}", tags.join(" "));
    }
    out.push_str(");\n");
    out.push_str(
        "\n// A field under `#[sendable(skip)]` is an error of its own (the derive\n\
         // declares no such attribute), which the case tolerates.\n\
         //~? ALLOW \"cannot find attribute\"\n",
    );
    for item in items.iter().filter(|item| item.module.is_none()) {
        out.push('\n');
        out.push_str(&item.text);
    }
    out.push_str(
        "\n// The shapes of a field's type beyond a plain path: each rejected\n\
         // type holds an `Rc`; its `Good` twin, of the same shape, holds a `Box`\n\
         // and must be accepted (an error there fails the case too).\n",
    );
    for item in &grammar_items {
        out.push('\n');
        out.push_str(&item.text);
    }
    out.push_str(&grammar_accepted);
    for (module, about) in SPECIAL_MODULES {
        out.push('\n');
        if !about.is_empty() {
            let _ = writeln!(out, "/// {about}");
        }
        let _ = writeln!(out, "mod {module} {{\n    use super::*;\n");
        out.push_str(&special_module_opening(module));
        for item in items.iter().filter(|item| item.module == Some(module)) {
            out.push('\n');
            out.push_str(&indent(&item.text, "    "));
        }
        out.push_str("}\n");
    }
    out.push_str("\nfn main() {}\n");
    out
}

/// The `index`th accepted type: three `Sendable` fields (wrapped), one
/// under an attribute.
fn accepted(index: usize, module: &str, name: &str) -> (Shape, String) {
    let shape = SHAPES[index % SHAPES.len()];
    let lifetime = shape.lifetime();
    let attribute = ATTRIBUTES[index % ACCEPTED_ATTRIBUTES];
    let fields: Vec<Field> = (0..3)
        .map(|slot| {
            let ty = fill(
                SENDABLES[(index * 3 + slot * 11) % SENDABLES.len()],
                "",
                lifetime,
            );
            let wrapper = WRAPPERS[(index + slot * 5) % WRAPPERS.len()];
            Field {
                attribute: if slot == index % 3 { attribute } else { "" },
                ty: wrapper.replace("{}", &ty),
            }
        })
        .collect();
    let mut text = format!("// {name}: {}.\n", shape.describe());
    text.push_str(&definition(
        shape,
        name,
        derive_path(module),
        &fields,
        index,
    ));
    (shape, text)
}

/// The behaviour case.
fn accepts() -> String {
    // (group, module path, name, shape)
    let mut probes: Vec<(usize, String, Shape)> = Vec::new();
    let mut body = String::new();
    for index in 0..48 {
        let name = format!("A{:02}", index + 1);
        let (shape, text) = accepted(index, "", &name);
        body.push('\n');
        body.push_str(&indent(&text, "    "));
        let group = usize::from(index % SHAPES.len() >= 3);
        probes.push((group, format!("types::{name}"), shape));
    }
    body.push_str(
        "\n    // Types that need no field checked, recursive types, and fields that\n    \
         // `cfg` removes before the derive sees them.\n    \
         #[derive(Sendable)]\n    pub struct Unit;\n\n    \
         #[derive(Sendable)]\n    pub struct Empty {}\n\n    \
         #[derive(Sendable)]\n    pub struct EmptyTuple();\n\n    \
         #[derive(Sendable)]\n    pub enum NoVariants {}\n\n    \
         #[derive(Sendable)]\n    pub enum Flags {\n        On,\n        Off,\n    }\n\n    \
         #[derive(Sendable)]\n    pub struct Tree {\n        pub value: u8,\n        pub children: Vec<Tree>,\n        pub parent: Option<Box<Tree>>,\n    }\n\n    \
         #[derive(Sendable)]\n    pub enum List<T> {\n        Nil,\n        Cons(T, Box<List<T>>),\n    }\n\n    \
         #[derive(Sendable)]\n    pub struct CfgRemoved {\n        pub kept: u8,\n        #[cfg(any())]\n        pub removed: std::rc::Rc<u8>,\n    }\n",
    );
    for extra in [
        "Unit",
        "Empty",
        "EmptyTuple",
        "NoVariants",
        "Flags",
        "Tree",
        "List<String>",
        "CfgRemoved",
    ] {
        probes.push((0, format!("types::{extra}"), Shape::Named));
    }
    let mut next = 48;
    for (module, about) in SPECIAL_MODULES {
        let _ = write!(
            body,
            "\n    /// {}\n",
            if about.is_empty() { "As above." } else { about }
        );
        let _ = writeln!(body, "    pub mod {module} {{\n        use super::*;\n");
        body.push_str(&indent(&special_module_opening(module), "    "));
        let count = if module.starts_with("same_name") {
            1
        } else {
            2
        };
        for _ in 0..count {
            let name = if module.starts_with("same_name") {
                "Job".to_owned()
            } else {
                format!("A{:02}", next + 1)
            };
            let (shape, text) = accepted(next, module, &name);
            body.push('\n');
            body.push_str(&indent(&text, "        "));
            probes.push((2, format!("types::{module}::{name}"), shape));
            next += 1;
        }
        body.push_str("    }\n");
    }
    let groups: [(&str, &str); 3] = [
        (
            "plain_shapes",
            "every field of these types is `Sendable`, so `#[derive(Sendable)]` must implement it, whatever attributes the fields carry",
        ),
        (
            "generic_shapes",
            "every field of these types is `Sendable` for these arguments, so `#[derive(Sendable)]` must implement it, keeping the type's lifetimes, const parameters, defaults and `where` clause",
        ),
        (
            "shadowed_and_same_names",
            "these types are derived where a local `Sendable` or `send_marker` shadows the real one, or share their name with another derived type: the derive must name the crate's trait by its full path (`::send_marker::Sendable`) and check each type on its own",
        ),
    ];
    let mut out = String::from(
        "//! Proves enforcement: `#[derive(Sendable)]` implements the trait for every\n\
         //! type of a corpus whose fields are all `Sendable`: structs (named, tuple,\n\
         //! unit, empty), enums, recursive types, type parameters with bounds,\n\
         //! defaults and `where` clauses, lifetimes and const parameters, fields of\n\
         //! the course's `Sendable` types nested in `Option`, `Box`, tuples, arrays,\n\
         //! `Vec`, maps and locks, under doc comments, `cfg_attr` and tool\n\
         //! attributes; types that share a name in different modules; and types\n\
         //! derived where a local trait, type or module named `Sendable` or\n\
         //! `send_marker` shadows the real one. And the generic ones, instantiated\n\
         //! with a parameter that is not `Sendable`, are not. The compiler answers\n\
         //! for each type in the observing program; the judge checks each answer.\n\
         //!\n\
         //! Written by `cargo run -p xsafe-grading-proofs --bin corpus -- --write`\n\
         //! (ci/proofs/src/corpus.rs): do not edit by hand.\n\
         use crate::support::{Answers, assert_all_sendable, assert_none_sendable, sendable_probes};\n\
         use serde::{Deserialize, Serialize};\n\
         use xsafe_case::Seed;\n\n\
         /// The derived types: only the observing program has the derive.\n\
         #[cfg(not(xsafe_judge))]\n\
         #[allow(dead_code, unused_imports, clippy::type_complexity)]\n\
         mod types {\n    \
         use send_marker::Sendable;\n\n    \
         /// A `Token` that is `Sendable` when its contents are.\n    \
         pub mod alike {\n        use super::*;\n\n        #[derive(Sendable)]\n        pub struct Token<T>(pub T);\n    }\n",
    );
    out.push_str(&body);
    out.push_str("}\n");
    for (group, (name, _)) in groups.iter().enumerate() {
        let _ = write!(out, "\nsendable_probes! {{\n    mod {name} {{\n");
        for (_, path, shape) in probes.iter().filter(|(g, _, _)| *g == group) {
            let _ = writeln!(out, "        {},", shape.instance(path));
        }
        out.push_str("    }\n}\n");
    }
    out.push_str("\nsendable_probes! {\n    mod generic_instances_that_must_not_move {\n");
    for (_, path, shape) in &probes {
        if let Some(instance) = shape.unsendable_instance(path) {
            let _ = writeln!(out, "        {instance},");
        }
    }
    out.push_str("    }\n}\n");
    out.push_str("\n#[derive(Debug, Serialize, Deserialize)]\npub struct Seen {\n");
    for (name, _) in &groups {
        let _ = writeln!(out, "    {name}: Answers,");
    }
    out.push_str("    generic_instances_that_must_not_move: Answers,\n}\n");
    out.push_str("\n#[cfg(not(xsafe_judge))]\npub fn observe(_seed: Seed) -> Seen {\n    Seen {\n");
    for (name, _) in &groups {
        let _ = writeln!(out, "        {name}: {name}::answers(),");
    }
    out.push_str(
        "        generic_instances_that_must_not_move: generic_instances_that_must_not_move::answers(),\n    }\n}\n",
    );
    out.push_str("\npub fn judge(_seed: Seed, seen: Seen) {\n");
    for (name, why) in &groups {
        let _ = writeln!(
            out,
            "    assert_all_sendable(\n        {name}::NAMES,\n        &seen.{name},\n        \"{why}\",\n    );"
        );
    }
    out.push_str(
        "    assert_none_sendable(\n        generic_instances_that_must_not_move::NAMES,\n        &seen.generic_instances_that_must_not_move,\n        \"a derived type is `Sendable` only when its type parameters are: the derive must bound each of them by `Sendable`\",\n    );\n}\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rejected type has its own tag, and every tag its annotation.
    #[test]
    fn one_annotation_per_rejected_type() {
        let text = rejects();
        for number in 1..=61 {
            let tag = format!("Tag{number:02}");
            assert_eq!(
                text.matches(&format!("//~? ERROR E0277 \"{tag}\"")).count(),
                1,
                "{tag}"
            );
        }
    }
}
