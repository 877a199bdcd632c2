//! The spec against the prelude (a file of its own: it names `api`, whose prelude is checked,
//! and `api` names `spec`).

use super::*;

/// The prelude computes the FIXED accessors' ids from copies of these lists.
#[test]
fn the_prelude_knows_the_fixed_domains_and_widths_in_order() {
    let prelude = crate::api::PRELUDE;
    let quoted = |v: Vec<&str>| {
        v.iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    assert!(prelude.contains(&format!(
        "local FIXED_DOMAINS = {{ {} }}",
        quoted(FIXED_DOMAINS.to_vec())
    )));
    let widths: Vec<String> = WIDTHS.iter().map(|w| format!("\"{}\"", w.0)).collect();
    let flat: String = prelude.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!("local FIXED_WIDTHS = {{ {} }}", widths.join(", "))),
        "{}",
        widths.join(", ")
    );
    assert!(prelude.contains(&format!(
        "local t, base = {{}}, {FIXED} + (method and 512 or 0) + d * 32"
    )));
}
