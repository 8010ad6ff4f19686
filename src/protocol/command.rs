//! Parsing one line into a command.
