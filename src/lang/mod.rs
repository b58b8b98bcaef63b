//! The card-text effect language: grammar, compiler and compiled form.

pub mod builtins;
pub mod compile;
pub mod ir;
pub mod names;
pub mod reference;
