//! The enforcing module: the only code that makes an [`Index`] or touches
//! the vector behind a [`Branded`] handle.

use std::fmt;
use std::marker::PhantomData;

/// A brand: a lifetime `'id` used as a name, not as a duration.
///
/// **Invariant in `'id`.** `fn(&'id ()) -> &'id ()` takes `'id` in an
/// argument (contravariant) and returns it (covariant), so the compiler may
/// neither shorten nor lengthen it: a `Brand<'a>` is a `Brand<'b>` only when
/// `'a` and `'b` are the same lifetime. Two scopes' brands never unify.
type Brand<'id> = PhantomData<fn(&'id ()) -> &'id ()>;

/// A position in the vector branded `'id`.
///
/// **Invariant:** `position < len` of that vector, and stays so: only
/// [`Branded::index`] and [`Branded::push`] make one, after checking, and
/// the vector never shrinks while its brand is alive.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Index<'id> {
    position: usize,
    brand: Brand<'id>,
}

impl<'id> Index<'id> {
    /// The position as a plain number (reading it cannot break anything).
    pub fn position(self) -> usize {
        self.position
    }
}

impl fmt::Debug for Index<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Index({})", self.position)
    }
}

/// A vector lent to one [`with`] scope, under the brand `'id`.
///
/// **Invariant:** it is the only handle with brand `'id`, and its vector's
/// length never decreases while it lives; every [`Index<'id>`] is below
/// that length.
pub struct Branded<'id, T> {
    items: &'id mut Vec<T>,
    brand: Brand<'id>,
}

/// Lends `items` to `scope` under a fresh brand.
///
/// `scope` must work for *every* lifetime `'id` (`for<'id>`), so it cannot
/// assume its brand is any other: an index it makes cannot be used on
/// another vector, nor returned out of the closure.
pub fn with<T, R>(items: &mut Vec<T>, scope: impl for<'id> FnOnce(Branded<'id, T>) -> R) -> R {
    scope(Branded {
        items,
        brand: PhantomData,
    })
}

impl<'id, T> Branded<'id, T> {
    /// How many items the vector holds.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the vector is empty (then no `Index<'id>` can exist).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The one bounds check: an index for `position`, if it is in bounds.
    pub fn index(&self, position: usize) -> Option<Index<'id>> {
        if position < self.items.len() {
            Some(Index {
                position,
                brand: self.brand,
            })
        } else {
            None
        }
    }

    /// Adds `value` at the end and returns its index. Growing keeps every
    /// index already made in bounds.
    pub fn push(&mut self, value: T) -> Index<'id> {
        let position = self.items.len();
        self.items.push(value);
        Index {
            position,
            brand: self.brand,
        }
    }

    /// The items, read-only, for many lookups in a row (see [`View`]).
    pub fn view(&self) -> View<'_, 'id, T> {
        View {
            items: self.items.as_slice(),
            brand: PhantomData,
        }
    }

    /// The item at `index`, with no bounds check.
    pub fn get(&self, index: Index<'id>) -> &T {
        self.view().get(index)
    }

    /// The item at `index`, to change in place, with no bounds check.
    pub fn get_mut(&mut self, index: Index<'id>) -> &mut T {
        // SAFETY: as in `get`: `index.position < len`, by the invariant of
        // `Index<'id>`.
        unsafe { self.items.get_unchecked_mut(index.position) }
    }

    /// Swaps the items at `a` and `b`, with no bounds check.
    pub fn swap(&mut self, a: Index<'id>, b: Index<'id>) {
        let items = self.items.as_mut_ptr();
        // SAFETY: both positions are below `len` (invariant of `Index<'id>`),
        // so both pointers are in the vector's allocation; `ptr::swap`
        // allows them to be equal.
        unsafe { std::ptr::swap(items.add(a.position), items.add(b.position)) }
    }
}

/// The items of the vector branded `'id`, read-only: what a loop of
/// lookups should hold.
///
/// A `View` holds the items' address and length itself. A lookup through
/// `&Branded` reaches the items through two pointers (the handle's
/// `&mut Vec`, then the vector's buffer), and the compiler reloads both on
/// every lookup whenever it cannot prove that the loop's own stores leave
/// them alone; through a `View`, the address stays in a register.
///
/// **Invariant:** every `Index<'id>` that exists while the view does is
/// below `items.len()`. The view borrows the handle, so nothing can push
/// while it lives, and the vector never shrinks while `'id` does.
pub struct View<'a, 'id, T> {
    items: &'a [T],
    brand: Brand<'id>,
}

impl<'a, 'id, T> View<'a, 'id, T> {
    /// The item at `index`, with no bounds check.
    pub fn get(self, index: Index<'id>) -> &'a T {
        // SAFETY: `index` has brand `'id`, and only this module makes one,
        // after checking `position < len` of this very vector (the brand is
        // invariant and fresh per `with`). The vector never shrinks while
        // `'id` lives, and it cannot grow while this view borrows its
        // handle, so `items` is the whole vector and the position is in it.
        unsafe { self.items.get_unchecked(index.position) }
    }
}

// By hand: a derive would ask for `T: Clone`, and a view is a pair of
// references whatever `T` is.
impl<T> Clone for View<'_, '_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for View<'_, '_, T> {}

impl<T: fmt::Debug> fmt::Debug for Branded<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Branded").field(&self.items).finish()
    }
}
