//! Proves consumption: `spawn` takes a payload, and gives back a result,
//! only if they are `Sendable`. Words shared through an `Arc` may go; the
//! same words shared through an `Rc` (whose count is not atomic) may not, as
//! a payload or as a result.
use send_marker::{Handle, Sendable};
use std::rc::Rc;
use std::sync::Arc;

// Reports a type that is not `Sendable` in this file's words.
#[diagnostic::on_unimplemented(message = "`{Self}` is not `Sendable`", label = "not `Sendable`")]
trait MustBeSendable: Sendable {}

#[diagnostic::do_not_recommend]
impl<T: ?Sized + Sendable> MustBeSendable for T {}

/// `send_marker::spawn`, whose bounds these restate, so that a refusal is
/// reported here.
fn spawn_job<T, R>(payload: T, work: fn(T) -> R) -> Handle<R>
where
    T: MustBeSendable + 'static,
    R: MustBeSendable + 'static,
{
    send_marker::spawn(payload, work)
}

fn count(words: Arc<Vec<String>>) -> usize {
    words.len()
}

fn count_shared(words: Rc<Vec<String>>) -> usize {
    words.len()
}

fn share(words: Vec<String>) -> Rc<Vec<String>> {
    Rc::new(words)
}

fn main() {
    let words = vec![String::from("tea"), String::from("cake")];
    let counted = spawn_job(Arc::new(words.clone()), count);
    let shared_count = spawn_job(Rc::new(words.clone()), count_shared); //~ ERROR E0277
    let shared_words = spawn_job(words, share); //~ ERROR E0277
    println!(
        "{}",
        counted.join() + shared_count.join() + shared_words.join().len()
    );
}
