//! `#[derive(Sendable)]`: implements `send_marker::Sendable` for a struct or
//! an enum, and refuses to compile unless every field's type is `Sendable`.
//!
//! A derive cannot ask the compiler whether a type implements a trait: it
//! only sees tokens. So it writes code that makes the compiler check. For
//!
//! ```text
//! #[derive(Sendable)]
//! struct Job<T> { id: u32, data: Vec<T> }
//! ```
//!
//! it expands to
//!
//! ```text
//! unsafe impl<T: ::send_marker::Sendable> ::send_marker::Sendable for Job<T> {}
//! const _: () = {
//!     fn check_fields<T: ::send_marker::Sendable>(_: &Job<T>) {
//!         let () = <u32 as ::send_marker::__derive::FieldIsSendable>::CHECKED;
//!         let () = <Vec<T> as ::send_marker::__derive::FieldIsSendable>::CHECKED;
//!     }
//! };
//! ```
//!
//! The impl bounds every type parameter, so `Job<Rc<u8>>` is not `Sendable`
//! while `Job<u8>` is. The body of `check_fields` only type-checks if each
//! field's type is `Sendable` whenever the parameters are: the `unsafe impl`
//! is sound because of that check, which is the derive's whole job. A field
//! that fails it is an error pointing at the field's type. The check is a
//! function body, not `where` clauses on the impl (its unused argument, a
//! reference to the type, gives it the bounds the type's definition
//! implies, such as `T: 'a` for a field `&'a mut T`): a `where` clause that
//! mentions a parameter is assumed, not checked, and one on the impl itself
//! would send the compiler in circles on recursive types (`next:
//! Option<Box<Self>>`).

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use syn::visit_mut::{self, VisitMut};
use syn::{Data, DeriveInput, Type, parse_macro_input, parse_quote};

/// Implements `send_marker::Sendable` for a struct or an enum whose fields
/// are all `Sendable`, bounding each type parameter by `Sendable`. A field
/// of any other type is a compile error that points at it. Unions are
/// refused: which field a union holds is not known.
#[proc_macro_derive(Sendable)]
pub fn derive_sendable(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let field_types = field_types(input)?;
    let mut generics = input.generics.clone();
    for param in generics.type_params_mut() {
        param.bounds.push(parse_quote!(::send_marker::Sendable));
    }
    let (impl_generics, type_generics, where_clause) = generics.split_for_impl();
    let name = &input.ident;
    // `check_fields` is a free function, where `Self` means nothing: a
    // field that names it (`next: Option<Box<Self>>`) is checked as the
    // type itself.
    let itself: Type = parse_quote!(#name #type_generics);
    let checks = field_types.iter().map(|ty| {
        let mut ty = (*ty).clone();
        SelfIs(&itself).visit_type_mut(&mut ty);
        quote! {
            let () = <#ty as ::send_marker::__derive::FieldIsSendable>::CHECKED;
        }
    });
    Ok(quote! {
        // SAFETY: a value of this type is its fields and nothing else, and
        // `check_fields` below only compiles if every field's type is
        // `Sendable` whenever the type parameters are.
        #[automatically_derived]
        #[allow(clippy::multiple_bound_locations)]
        unsafe impl #impl_generics ::send_marker::Sendable for #name #type_generics #where_clause {}

        const _: () = {
            #[allow(dead_code, clippy::let_unit_value, clippy::multiple_bound_locations)]
            fn check_fields #impl_generics (_: &#itself) #where_clause {
                #(#checks)*
            }
        };
    })
}

/// Replaces `Self` in a type by the type it stands for.
struct SelfIs<'a>(&'a Type);

impl VisitMut for SelfIs<'_> {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if let Type::Path(path) = ty
            && path.qself.is_none()
            && path.path.is_ident("Self")
        {
            *ty = self.0.clone();
            return;
        }
        visit_mut::visit_type_mut(self, ty);
    }
}

/// The type of every field, of every variant for an enum.
fn field_types(input: &DeriveInput) -> syn::Result<Vec<&Type>> {
    match &input.data {
        Data::Struct(data) => Ok(data.fields.iter().map(|field| &field.ty).collect()),
        Data::Enum(data) => Ok(data
            .variants
            .iter()
            .flat_map(|variant| variant.fields.iter().map(|field| &field.ty))
            .collect()),
        Data::Union(data) => Err(syn::Error::new(
            data.union_token.span,
            "`Sendable` cannot be derived for a union: write an `unsafe impl` that says why its fields may move",
        )),
    }
}
