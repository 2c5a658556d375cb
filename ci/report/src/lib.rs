//! The X-safe Rust grade report: one model, a renderer per surface.
//!
//! * [`model`]: what a grade found. [`ExerciseReport`] is one exercise's
//!   grade (made from the engine's `Grade`), [`Report`] a submission's
//!   (the instructor's grader). Its JSON form is versioned
//!   ([`model::SCHEMA_VERSION`], `ci/grader/report.schema.json`).
//! * [`render`]: the grader's surfaces (text, Markdown, JUnit XML, JSON),
//!   each escaping what a submission controls. The learner's tool draws
//!   its screen from the same model, with the same words and escaping.
//! * [`classroom`]: GitHub Classroom's runner results, one per exercise,
//!   with the grader's partial credit.
//!
//! Features: `junit` (JUnit XML, with quick-junit), `schema` (the JSON
//! schema, with schemars) and `classroom` (base64), all on by default; the
//! learner's tool builds without them.

#[cfg(feature = "classroom")]
pub mod classroom;
pub mod model;
pub mod render;

pub use model::{
    CaseReport, CaseStatus, Change, ExerciseReport, ExerciseStatus, Ignored, Report, ReportLimits,
    Setting, StepReport, first_error,
};
