//! The card-text effect language: grammar, compiler and compiled form.

pub mod builtins;
pub mod compile;
#[cfg(test)]
mod compile_tests;
pub mod doc;
pub mod ir;
pub mod kind;
pub mod names;
