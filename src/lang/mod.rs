//! The card-text effect language: grammar, compiler and compiled form.

pub mod builtins;
pub mod compile;
pub mod doc;
pub mod ir;
pub mod kind;
pub mod names;
