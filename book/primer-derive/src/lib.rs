//! The derive that the book's primer "Writing a derive" builds:
//! `#[derive(Checksum)]` writes an `impl Checksum` whose `checksum`
//! combines the checksums of every field of a struct.
//!
//! The expansion names the trait as `Checksum`, the way the code around the
//! struct does, so the trait must be in scope where the derive is used. The
//! primer explains why a library's derive names its trait by a full path
//! instead.

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Index, parse_macro_input, parse_quote};

// ANCHOR: entry
/// `#[derive(Checksum)]`. The compiler calls it with the tokens of the item
/// the attribute is on, and adds the tokens it returns after that item.
#[proc_macro_derive(Checksum)]
pub fn derive_checksum(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
// ANCHOR_END: entry

// ANCHOR: expand
/// The expansion, from and to ordinary values, so that tests can call it.
fn expand(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let Data::Struct(data) = &input.data else {
        let message = "`#[derive(Checksum)]` supports structs only";
        return Err(syn::Error::new_spanned(&input.ident, message));
    };
    // One step per field, reading it as `self.name`, or `self.0` in a
    // tuple struct. The step carries the span of the field's type, so an
    // error about that type points at the field.
    let steps = data.fields.iter().enumerate().map(|(position, field)| {
        let member = match &field.ident {
            Some(name) => quote!(#name),
            None => {
                let position = Index::from(position);
                quote!(#position)
            }
        };
        quote_spanned! {field.ty.span()=>
            sum = sum.rotate_left(5) ^ Checksum::checksum(&self.#member);
        }
    });
    // Every type parameter must have a checksum too.
    let mut generics = input.generics.clone();
    for parameter in generics.type_params_mut() {
        parameter.bounds.push(parse_quote!(Checksum));
    }
    let (impl_generics, type_generics, where_clause) = generics.split_for_impl();
    let name = &input.ident;
    Ok(quote! {
        impl #impl_generics Checksum for #name #type_generics #where_clause {
            fn checksum(&self) -> u32 {
                let mut sum: u32 = 0;
                #(#steps)*
                sum
            }
        }
    })
}
// ANCHOR_END: expand

// ANCHOR: tests
#[cfg(test)]
mod tests {
    use super::expand;
    use syn::parse_quote;

    #[test]
    fn bounds_every_type_parameter() {
        let input = parse_quote! {
            struct Tagged<T> where T: Clone { tag: u8, value: T }
        };
        let output = expand(&input).unwrap().to_string();
        let head = "impl < T : Checksum > Checksum for Tagged < T > where T : Clone";
        assert!(output.starts_with(head), "{output}");
    }

    #[test]
    fn reads_tuple_fields_by_position() {
        let input = parse_quote! { struct Pair(u8, u16); };
        let output = expand(&input).unwrap().to_string();
        assert!(output.contains("& self . 1"), "{output}");
    }

    #[test]
    fn refuses_an_enum() {
        let input = parse_quote! { enum Level { Low, High } };
        let error = expand(&input).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`#[derive(Checksum)]` supports structs only"
        );
    }
}
// ANCHOR_END: tests
