//! The tokio server: session actors over stdio and TCP.
