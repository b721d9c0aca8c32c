//! Graphs over ids: cycles with their whole path (each reported once, from its earliest node),
//! nodes blocked by a cycle or by an unsatisfiable prerequisite, and call orders.

pub mod cycles;
