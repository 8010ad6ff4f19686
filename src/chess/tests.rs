//! Movement tests.
