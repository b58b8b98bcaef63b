//! The card-text language's definition: `grammar/effect.pest`, made a pest
//! parser. What it accepts is the language, and its errors are the syntax
//! errors shown; [`crate::lang::descent`] reads the same grammar faster.

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/effect.pest"]
pub(crate) struct EffectParser;
