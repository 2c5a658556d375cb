//! The enforcing module: meant to be the only code that makes an [`Index`]
//! or touches the vector behind a [`Branded`] handle.

use std::fmt;
use std::marker::PhantomData;

/// A brand: a lifetime `'id` used as a name, not as a duration.
///
/// **Invariant in `'id`** (meant to be): the compiler must neither shorten
/// nor lengthen it, so that two scopes' brands never unify.
// TODO(enforcement): `PhantomData<&'id ()>` is covariant in `'id`: the
// compiler may shorten it, and two brands shortened to a common lifetime
// are the same type. Choose a `PhantomData` that is invariant in `'id`.
type Brand<'id> = PhantomData<&'id ()>;

/// A position in the vector branded `'id`.
///
/// **Invariant:** `position < len` of that vector, and stays so: only
/// [`Branded::index`] and [`Branded::push`] make one, after checking, and
/// the vector never shrinks while its brand is alive.
// TODO(enforcement): public fields let any code write `Index { position: 7,
// brand: PhantomData }` without the check.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Index<'id> {
    pub position: usize,
    pub brand: Brand<'id>,
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
// TODO(enforcement): a public `items` field lets any code call
// `branded.items.truncate(0)` while indices are alive.
pub struct Branded<'id, T> {
    pub items: &'id mut Vec<T>,
    pub brand: Brand<'id>,
}

/// Lends `items` to `scope` under a fresh brand.
///
/// `scope` must work for *every* lifetime `'id` (`for<'id>`), so it cannot
/// assume its brand is any other.
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
        // TODO(enforcement): check `position` against the length, once.
        let _ = position;
        todo!()
    }

    /// Adds `value` at the end and returns its index. Growing keeps every
    /// index already made in bounds.
    pub fn push(&mut self, value: T) -> Index<'id> {
        // TODO(enforcement): push, and return the index of the new item.
        let _ = value;
        todo!()
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
        // TODO(consumption): no check here: `View::get` through
        // `self.view()`, or `get_unchecked` with a `// SAFETY:` comment.
        let _ = index;
        todo!()
    }

    /// The item at `index`, to change in place, with no bounds check.
    pub fn get_mut(&mut self, index: Index<'id>) -> &mut T {
        // TODO(consumption): as `get`.
        let _ = index;
        todo!()
    }

    /// Swaps the items at `a` and `b`, with no bounds check.
    pub fn swap(&mut self, a: Index<'id>, b: Index<'id>) {
        // TODO(consumption): `slice::swap` checks both positions; swap
        // through raw pointers instead (`std::ptr::swap` allows `a == b`).
        let _ = (a, b);
        todo!()
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
        // TODO(consumption): `get_unchecked`, with a `// SAFETY:` comment
        // that says which invariants make it sound.
        let _ = (self.items, self.brand, index);
        todo!()
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
