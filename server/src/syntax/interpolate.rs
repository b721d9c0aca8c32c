//! `${…}` substitution in a YAML tree, as SwarmKit applies it to every artifact before it
//! validates anything (swarmkit-runtime 1.265.0: `_apply_env_interpolation` in
//! `resolver/__init__.py`, `interpolate_value` and `_resolve_refs` in `resolver/_env_config.py`).
//!
//! Every string value (never a key) is rewritten. Each `${NAME}` or `${NAME:-default}` is looked
//! up, in order, in the workspace's property map (dotted paths from `workspace.env.yaml`), then
//! the environment, then its default; a reference none of them answers stays as written, and
//! `$${…}` stands for a literal `${…}`. A value that is exactly one reference to a property whose
//! value is not a string takes that value's type (`port: ${db.port}` is an integer).
//!
//! The sources arrive as plain data ([`Variables`]): the core does no I/O. The scalar keeps the
//! range it was written at, so a diagnostic about the substituted value points at the text as
//! written, and the substitutions are returned so the IDE can say what a value became and why.
//!
//! Worst cases are linear: one left-to-right scan per string, with the position of the next `}`
//! remembered, so a line of 200,000 unterminated `${` costs one pass; a substituted value is
//! never scanned again (no nesting, no recursion); and what substitution may add to one document
//! is capped ([`MAX_GROWTH`]): a value past the cap stays as written and is reported.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::yaml::{Style, YamlDocument};
use super::TextRange;

/// Most bytes substitution may add to one document, all values together (the size of the file
/// cap): a value that would pass it is left as written and reported.
pub const MAX_GROWTH: usize = 4 * 1024 * 1024;

/// A property of `workspace.env.yaml`, by its dotted path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// What a reference inside a longer string reads: the value as text (`str()` of the YAML
    /// value, so `True`, `None`, `4096`), with `${…}` in it resolved against the environment.
    pub text: String,
    /// What a value that is only this reference becomes.
    pub typed: Typed,
    /// Where the value is written in the property file.
    pub range: TextRange,
}

/// The YAML type a whole-value reference to a property takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// A string: the value is [`Property::text`].
    Str,
    /// A number, boolean or null, written as a plain scalar that reads as that type.
    Plain(String),
    /// A list or mapping: the tree cannot take it in place of a scalar, so the value stays as
    /// written (see docs/architecture/decisions-worth-knowing.md).
    Collection,
}

/// Where the values of `${…}` come from, in the order they are tried.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variables {
    /// The workspace's property map, by dotted path.
    pub properties: Arc<BTreeMap<String, Property>>,
    /// The file the properties come from, for the IDE (`workspace.env.yaml`, or the variant
    /// `SWARMKIT_ENV` selects).
    pub property_file: Option<std::path::PathBuf>,
    /// The environment: the CLI's process environment, or what the server was given.
    pub environment: Arc<BTreeMap<String, String>>,
}

/// Where one reference's value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Property,
    Environment,
    Default,
    /// Nothing answered: the reference stays as written.
    Unresolved,
    /// `$${…}`: a literal `${…}`.
    Escaped,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The name as written between `${` and `:-` (or `}`).
    pub name: String,
    pub source: Source,
}

/// One scalar that holds `${`: what it became and from where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Substitution {
    /// The scalar's range as written.
    pub range: TextRange,
    /// The value after substitution, or as written when it stayed.
    pub value: String,
    pub references: Vec<Reference>,
    /// True when the value passed [`MAX_GROWTH`] and stays as written.
    pub too_large: bool,
}

impl Variables {
    fn lookup(&self, name: &str) -> Option<(&str, Source)> {
        if let Some(property) = self.properties.get(name) {
            return Some((&property.text, Source::Property));
        }
        self.environment
            .get(name)
            .map(|value| (value.as_str(), Source::Environment))
    }
}

/// Substitutes every `${…}` in the string values of `doc`, in place, and returns what each
/// scalar holding `${` became. Linear in the text plus what substitution adds (capped).
pub fn interpolate(doc: &mut YamlDocument, variables: &Variables) -> Vec<Substitution> {
    let mut out = Vec::new();
    let mut budget = MAX_GROWTH;
    for id in doc.interpolation_candidates() {
        let node = doc.node(id);
        let range = node.range();
        let Some(written) = node.scalar() else {
            continue;
        };
        let mut references = Vec::new();
        // What the value may grow to: the check is made while it is built, so a value that would
        // pass the cap costs no more than the cap to find out.
        let most = written.len() + budget;
        let substituted = match whole_reference(written, variables, &mut references) {
            Some((value, style)) => (value.len() <= most).then(|| (value.to_owned(), style)),
            None => substitute(written, variables, &mut references, most)
                .map(|value| (value, Style::Substituted)),
        };
        let too_large = substituted.is_none();
        let value = match substituted {
            None => written.to_owned(),
            Some((value, style)) => {
                budget -= value.len().saturating_sub(written.len());
                if value != written || style != Style::Substituted {
                    doc.set_scalar(id, &value, style);
                }
                value
            }
        };
        out.push(Substitution {
            range,
            value,
            references,
            too_large,
        });
    }
    out.sort_by_key(|s| (s.range.start, s.range.end));
    out
}

/// A value that is exactly `${NAME}` or `${NAME:-default}` (before at most one final line
/// break), as `_WHOLE_REF` in `_env_config.py` matches it: the name holds no `:` or `}`, the
/// default runs to the last `}` and holds no line break. Returns the value and its style, or
/// `None` when the value is not such a reference or nothing answers it (the general scan then
/// leaves it as written).
fn whole_reference<'v>(
    written: &'v str,
    variables: &'v Variables,
    references: &mut Vec<Reference>,
) -> Option<(&'v str, Style)> {
    let core = written.strip_suffix('\n').unwrap_or(written);
    let inner = core.strip_prefix("${")?.strip_suffix('}')?;
    let name_end = inner.find([':', '}']).unwrap_or(inner.len());
    let name = &inner[..name_end];
    if name.is_empty() {
        return None;
    }
    let default = match &inner[name_end..] {
        "" => None,
        rest => {
            let default = rest.strip_prefix(":-")?;
            if default.contains('\n') {
                return None;
            }
            Some(default)
        }
    };
    let (value, style, source) = if let Some(property) = variables.properties.get(name) {
        match &property.typed {
            Typed::Str => (property.text.as_str(), Style::Substituted, Source::Property),
            Typed::Plain(text) => (text.as_str(), Style::Plain, Source::Property),
            Typed::Collection => return None,
        }
    } else if let Some(value) = variables.environment.get(name) {
        (value.as_str(), Style::Substituted, Source::Environment)
    } else if let Some(default) = default {
        (default, Style::Substituted, Source::Default)
    } else {
        return None;
    };
    references.push(Reference {
        name: name.to_owned(),
        source,
    });
    Some((value, style))
}

/// `_resolve_refs`: one left-to-right pass over `written` matching `(\$?)\$\{([^}]+)\}` as
/// Python's `re.sub` does (leftmost match, then on after it). The next `}` is remembered, so
/// the pass is linear however many `${` are left open. `None` as soon as the result would be
/// longer than `most` bytes: a variable's value that would pass the cap is never copied, and
/// what else is copied comes from `written` itself, so the result never grows past `most` by
/// more than one piece of the text as written.
pub fn substitute(
    written: &str,
    variables: &Variables,
    references: &mut Vec<Reference>,
    most: usize,
) -> Option<String> {
    if !written.contains("${") {
        return (written.len() <= most).then(|| written.to_owned());
    }
    let bytes = written.as_bytes();
    let mut out = String::with_capacity(written.len());
    let mut copied = 0;
    let mut at = 0;
    // The first `}` at or after some position, found once and reused while it lies ahead.
    let mut next_close: Option<usize> = None;
    let mut close_from = |from: usize| -> Option<usize> {
        match next_close {
            Some(close) if close >= from => Some(close),
            _ => {
                next_close = written[from..].find('}').map(|i| from + i);
                next_close
            }
        }
    };
    while let Some(offset) = written[at..].find('$') {
        let dollar = at + offset;
        // `$${…}` escapes; a lone `${…}` is a reference. The body is at least one character and
        // runs to the first `}`.
        let escaped = bytes.get(dollar + 1) == Some(&b'$') && bytes.get(dollar + 2) == Some(&b'{');
        let open = if escaped { dollar + 3 } else { dollar + 2 };
        let is_reference = escaped || bytes.get(dollar + 1) == Some(&b'{');
        let close = if is_reference { close_from(open) } else { None };
        let Some(close) = close.filter(|&close| close > open) else {
            if close_from(dollar).is_none() {
                break; // no `}` ahead: nothing further can match
            }
            at = dollar + 1;
            continue;
        };
        let body = &written[open..close];
        out.push_str(&written[copied..dollar]);
        let (name, default) = match body.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (body, None),
        };
        let source = if escaped {
            out.push_str("${");
            out.push_str(body);
            out.push('}');
            Source::Escaped
        } else if let Some((value, source)) = variables.lookup(name) {
            // Checked before the copy: a value that would pass the cap is never copied.
            if out.len() + value.len() > most {
                return None;
            }
            out.push_str(value);
            source
        } else if let Some(default) = default {
            out.push_str(default);
            Source::Default
        } else {
            out.push_str(&written[dollar..=close]);
            Source::Unresolved
        };
        references.push(Reference {
            name: name.to_owned(),
            source,
        });
        if out.len() > most {
            return None;
        }
        copied = close + 1;
        at = close + 1;
    }
    out.push_str(&written[copied..]);
    (out.len() <= most).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(properties: &[(&str, &str, Typed)], environment: &[(&str, &str)]) -> Variables {
        Variables {
            properties: Arc::new(
                properties
                    .iter()
                    .map(|(k, v, typed)| {
                        (
                            (*k).to_owned(),
                            Property {
                                text: (*v).to_owned(),
                                typed: typed.clone(),
                                range: TextRange::empty(0),
                            },
                        )
                    })
                    .collect(),
            ),
            property_file: None,
            environment: Arc::new(
                environment
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                    .collect(),
            ),
        }
    }

    fn sub(text: &str, variables: &Variables) -> String {
        substitute(text, variables, &mut Vec::new(), usize::MAX).expect("no cap")
    }

    #[test]
    fn sources_in_order_defaults_escapes_and_literals() {
        let v = vars(
            &[("a.b", "prop", Typed::Str)],
            &[("a.b", "env"), ("E", "e")],
        );
        assert_eq!(sub("x${a.b}y", &v), "xpropy");
        assert_eq!(sub("${E}-${E:-d}", &v), "e-e");
        assert_eq!(sub("sum${X:-mar}ize", &v), "summarize");
        assert_eq!(sub("${X:-}", &v), "");
        assert_eq!(sub("${X}", &v), "${X}");
        assert_eq!(sub("$${E}", &v), "${E}");
        assert_eq!(sub("$$${E}", &v), "$${E}");
        assert_eq!(sub("$$$${E}", &v), "$$${E}");
        assert_eq!(sub("${}", &v), "${}");
        assert_eq!(sub("${} ${E}", &v), "${} e");
        // The body runs to the first `}`: no nesting, the rest stays.
        assert_eq!(sub("${X:-${E}}", &v), "${E}");
        assert_eq!(sub("${X:-a:-b}", &v), "a:-b");
        // Unterminated references stay.
        assert_eq!(sub("${E", &v), "${E");
        assert_eq!(sub("a $ b ${E} ${", &v), "a $ b e ${");
    }

    #[test]
    fn a_whole_reference_to_a_typed_property_takes_its_type() {
        let v = vars(
            &[
                ("port", "4096", Typed::Plain("4096".into())),
                ("name", "n", Typed::Str),
            ],
            &[],
        );
        let mut doc = YamlDocument::parse(
            "a: ${port}\nb: \"${port}\"\nc: p${port}\nd: ${name}\ne: ${X:-x}y}\n",
            0,
        );
        let found = interpolate(&mut doc, &v);
        assert_eq!(found.len(), 5);
        let root = doc.root().unwrap();
        assert_eq!(root.get("a").unwrap().to_json(), serde_json::json!(4096));
        assert_eq!(root.get("b").unwrap().to_json(), serde_json::json!(4096));
        assert_eq!(root.get("c").unwrap().to_json(), serde_json::json!("p4096"));
        assert_eq!(root.get("d").unwrap().to_json(), serde_json::json!("n"));
        // A whole reference's default runs to the last `}`.
        assert_eq!(root.get("e").unwrap().to_json(), serde_json::json!("x}y"));
        // The range stays the scalar as written.
        assert_eq!(found[0].range, TextRange::new(3, 10));
        assert_eq!(found[0].references[0].source, Source::Property);
    }

    #[test]
    fn keys_are_not_substituted_and_strings_stay_strings() {
        let v = vars(&[], &[("N", "5"), ("T", "true")]);
        let mut doc = YamlDocument::parse("${N}: ${N}\nlist: [\"${T}\", x]\n", 0);
        interpolate(&mut doc, &v);
        let root = doc.root().unwrap();
        assert_eq!(
            root.to_json(),
            serde_json::json!({"${N}": "5", "list": ["true", "x"]})
        );
    }

    #[test]
    fn two_hundred_thousand_open_references_cost_one_pass() {
        let v = vars(&[], &[("E", "e")]);
        let open = "${".repeat(200_000);
        assert_eq!(sub(&open, &v), open);
        // With one `}` at the very end, the first `${` takes everything up to it.
        let closed = format!("{open}}}");
        assert_eq!(sub(&closed, &v), closed);
        let many = "${E}".repeat(200_000);
        assert_eq!(sub(&many, &v), "e".repeat(200_000));
        let escapes = "$".repeat(200_000);
        assert_eq!(
            sub(&format!("{escapes}{{E}}"), &v),
            format!("{}${{E}}", "$".repeat(199_998))
        );
    }

    #[test]
    fn growth_is_capped_for_the_whole_document() {
        let big = "x".repeat(1024 * 1024);
        let v = vars(&[("big", &big, Typed::Str)], &[]);
        let text = (0..6)
            .map(|i| format!("k{i}: a${{big}}\n"))
            .collect::<String>();
        let mut doc = YamlDocument::parse(&text, 0);
        let found = interpolate(&mut doc, &v);
        let stayed: Vec<bool> = found.iter().map(|s| s.too_large).collect();
        assert_eq!(stayed, [false, false, false, false, true, true]);
        assert_eq!(
            doc.root().unwrap().get("k5").unwrap().scalar(),
            Some("a${big}")
        );
    }

    #[test]
    fn a_value_that_would_pass_the_cap_is_never_built() {
        let big = "x".repeat(1024 * 1024);
        let v = vars(&[("big", &big, Typed::Str)], &[]);
        // A thousand references to a megabyte: the scan stops at the reference that passes the
        // cap instead of building a gigabyte first.
        let written = "${big}".repeat(1_000);
        let mut references = Vec::new();
        assert_eq!(substitute(&written, &v, &mut references, MAX_GROWTH), None);
        // Four megabytes fit; the fifth reference is refused before its value is copied.
        assert_eq!(references.len(), 4);
        let mut doc = YamlDocument::parse(&format!("k: \"{written}\"\n"), 0);
        let found = interpolate(&mut doc, &v);
        assert!(found[0].too_large);
        assert_eq!(
            doc.root().unwrap().get("k").unwrap().scalar(),
            Some(written.as_str())
        );
        // A whole-value reference is measured before it is copied.
        let mut doc = YamlDocument::parse("a: ${big}\n", 0);
        let v = vars(&[("big", &"y".repeat(MAX_GROWTH + 10), Typed::Str)], &[]);
        assert!(interpolate(&mut doc, &v)[0].too_large);
    }
}
