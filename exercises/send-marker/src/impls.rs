//! Enforcement: which std types are [`Sendable`].
//!
//! Every impl in this file is a promise that the compiler takes on trust, so
//! each one must mean what std's own `Send` impl for the same type means,
//! under the same conditions. To audit the whole property, one reads this
//! file and the derive; nothing else in the course implements the trait.
//!
//! TODO(enforcement): write the impls, each `unsafe impl` with a `// SAFETY:`
//! comment that says why the type keeps the contract. The grading cases
//! expect at least:
//!
//! * the primitives (`bool`, `char`, every integer and float type, `()`),
//!   `str` and `String`, `std::time::Duration` and `std::time::Instant`,
//!   and the atomics `AtomicBool` and `AtomicUsize`;
//! * `&T` when `T: Sync` (std's rule for shared references), and `&mut T`
//!   when `T` is `Sendable`;
//! * structurally, when their elements are `Sendable`: tuples of two, three
//!   and four elements, arrays `[T; N]`, `Box<T>` (also for an unsized `T`,
//!   as in `Box<str>`), `Vec<T>`, `Option<T>`, `Result<T, E>`,
//!   `PhantomData<T>`, `Cell<T>`, `RefCell<T>`, `Mutex<T>`, `RwLock<T>`,
//!   `Arc<T>` (which also needs `T: Sync`), the collections `VecDeque<T>`,
//!   `HashMap<K, V>`, `HashSet<T>`, `BTreeMap<K, V>` and `BTreeSet<T>`, and
//!   the channel ends `mpsc::Sender<T>`, `mpsc::SyncSender<T>` and
//!   `mpsc::Receiver<T>`.
//!
//! More impls are welcome (longer tuples, the other atomics, `NonZeroU8`
//! and the like), each on std's own conditions; the grading cases do not
//! ask for them.
//!
//! And no impl, on any condition, for `Rc<T>` or `rc::Weak<T>`, for a `&T`
//! whose `T` is not `Sync` (such as `&Cell<u8>`), for the raw pointers
//! `*const T`, `*mut T` and `NonNull<T>`, or for lock guards such as
//! `MutexGuard`. Macros (`macro_rules!`) save typing for the many similar
//! impls.
