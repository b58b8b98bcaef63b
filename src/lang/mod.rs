//! The card-text effect language: grammar, compiler and compiled form.

pub mod builtins;
pub mod compile;
#[cfg(test)]
mod compile_tests;
mod descent;
#[cfg(test)]
pub(crate) mod descent_tests;
pub mod doc;
pub(crate) mod grammar;
pub mod ir;
pub mod kind;
pub mod names;
pub(crate) mod syntax;
