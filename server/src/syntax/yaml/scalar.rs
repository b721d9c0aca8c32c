//! What a scalar means under the YAML 1.2 core schema (null, bool, int, float, string), as the
//! JSON Schema check and the typed readers see it; the text stays as written.

use super::Style;

/// A scalar read with the YAML 1.2 core schema.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarValue<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
    NotScalar,
}

impl<'a> ScalarValue<'a> {
    /// A short name of the scalar's YAML type, for messages; `None` for a collection.
    pub fn type_name(self) -> Option<&'static str> {
        Some(match self {
            ScalarValue::Null => "null",
            ScalarValue::Bool(_) => "boolean",
            ScalarValue::Int(_) => "integer",
            ScalarValue::Float(_) => "number",
            ScalarValue::Str(_) => "string",
            ScalarValue::NotScalar => return None,
        })
    }

    /// A scalar's text read with the YAML 1.2 core schema: only a plain scalar can be anything
    /// but a string. What [`Node::value`](super::Node::value) gives, for text kept after the tree is gone.
    pub fn interpret(text: &'a str, style: Style) -> ScalarValue<'a> {
        if style != Style::Plain {
            return ScalarValue::Str(text);
        }
        match text {
            "" | "~" | "null" | "Null" | "NULL" => return ScalarValue::Null,
            "true" | "True" | "TRUE" => return ScalarValue::Bool(true),
            "false" | "False" | "FALSE" => return ScalarValue::Bool(false),
            ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
                return ScalarValue::Float(f64::INFINITY)
            }
            "-.inf" | "-.Inf" | "-.INF" => return ScalarValue::Float(f64::NEG_INFINITY),
            ".nan" | ".NaN" | ".NAN" => return ScalarValue::Float(f64::NAN),
            _ => {}
        }
        if let Some(int) = parse_core_int(text) {
            return ScalarValue::Int(int);
        }
        if looks_like_core_float(text) {
            if let Ok(f) = text.parse::<f64>() {
                return ScalarValue::Float(f);
            }
        }
        ScalarValue::Str(text)
    }
}

pub(super) fn parse_core_int(text: &str) -> Option<i64> {
    if let Some(hex) = text.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok();
    }
    if let Some(oct) = text.strip_prefix("0o") {
        return i64::from_str_radix(oct, 8).ok();
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
pub(super) fn looks_like_core_float(text: &str) -> bool {
    let s = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (int_part, frac_part) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], Some(&mantissa[i + 1..])),
        None => (mantissa, None),
    };
    let digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match frac_part {
        Some(frac) => digits(int_part) && digits(frac) && !(int_part.is_empty() && frac.is_empty()),
        None => !int_part.is_empty() && digits(int_part),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}
