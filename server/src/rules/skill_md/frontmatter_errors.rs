//! A SKILL.md whose frontmatter block or YAML is broken, said in plain words: no `---` on the
//! first line, the parser's errors and duplicate keys, and the two slips real files make most
//! (`key: value: more`, a tab in the indentation) with the edit that quotes the value. It reads
//! the text and the parsed document only, never the fields they hold.

use super::super::swarmkit_file::duplicate_key;
use crate::diagnostic::{codes, Diagnostic, FileId, Fix};
use crate::syntax::{TextRange, YamlDocument, YamlErrorKind};

pub(super) fn no_frontmatter(file: FileId, text: &str) -> Diagnostic {
    let bom = crate::syntax::bom_len(text);
    let first = &text[bom..];
    let line_len = first.find(['\n', '\r']).unwrap_or(first.len());
    let line = &first[..line_len];
    let range = TextRange::new(bom as u32, (bom + line_len) as u32);
    let message = if line.trim().is_empty() && first[line_len..].trim_start().starts_with("---") {
        "the frontmatter must start on the first line; remove the blank lines above `---`"
            .to_owned()
    } else if line.starts_with("---") {
        format!("the first line must be exactly `---`, found `{}`; put the frontmatter's first field on the next line", line.trim_end())
    } else {
        "a SKILL.md must start with a `---` line opening its YAML frontmatter; add `---`, `name: ...`, `description: ...` and `---` at the top".to_owned()
    };
    Diagnostic::new(codes::SKILLMD_NO_FRONTMATTER, file, range, message)
}

pub(super) fn syntax_diagnostics(
    file: FileId,
    text: &str,
    yaml: &YamlDocument,
    out: &mut Vec<Diagnostic>,
) {
    for error in &yaml.errors {
        if error.kind == YamlErrorKind::Syntax {
            if let Some((range, message, fix)) = plain_yaml_cause(text, error.range, &error.message)
            {
                let mut diagnostic =
                    Diagnostic::new(codes::SKILLMD_YAML_PARSE, file, range, message);
                diagnostic.fixes.extend(fix.map(|(range, quoted)| {
                    Fix::replace("Quote the value", file, range, quoted)
                        .preferred()
                        .safe()
                }));
                out.push(diagnostic);
                continue;
            }
        }
        let message = match error.kind {
            YamlErrorKind::Syntax => match error.message.strip_prefix("this is not valid YAML: ") {
                Some(problem) => format!("the frontmatter is not valid YAML: {problem}"),
                None => error.message.clone(),
            },
            _ => error.message.clone(),
        };
        // The alias limits are the YAML layer's, whatever file the YAML is in.
        let code = match error.kind {
            YamlErrorKind::AliasExpansion => codes::YAML_ALIAS_EXPANSION,
            YamlErrorKind::AliasDepth => codes::YAML_ALIAS_DEPTH,
            _ => codes::SKILLMD_YAML_PARSE,
        };
        out.push(Diagnostic::new(code, file, error.range, message));
    }
    for duplicate in &yaml.duplicate_keys {
        out.push(duplicate_key(
            file,
            duplicate,
            "field",
            "hosts keep only one of the two values",
        ));
    }
}

/// The likely cause of a frontmatter syntax error in plain words, where it is: the two mistakes
/// real SKILL.md files make most (`key: value: more`, and a tab in the indentation), which the
/// parser reports in its own terms and, for the tab, at the end of the line before.
/// The third part is the edit that quotes the value, when the value is all on its line.
type Cause = (TextRange, String, Option<(TextRange, String)>);

fn plain_yaml_cause(text: &str, at: TextRange, parser: &str) -> Option<Cause> {
    let start = (at.start as usize).min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let tab_at_error = parser.contains("found character that cannot start any token")
        && text[start..].starts_with('\t');
    if parser.contains("found a tab") || tab_at_error {
        let tab = start + text[start..].find('\t')?;
        let tab_line_start = text[..tab].rfind('\n').map_or(0, |i| i + 1);
        let line_no = text[..tab].matches('\n').count() + 1;
        let range = TextRange::new(tab as u32, tab as u32 + 1);
        let message = if text[tab_line_start..tab].trim().is_empty() {
            format!("the frontmatter is not valid YAML: line {line_no} is indented with a tab, and YAML indents with spaces only; replace the tab with spaces")
        } else {
            format!("the frontmatter is not valid YAML: a tab on line {line_no} follows an unquoted value; replace it with a space, or quote the value")
        };
        return Some((range, message, None));
    }
    if parser.contains("mapping values are not allowed") && text[start..].starts_with(':') {
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line = &text[line_start..line_end];
        let (key, value) = line.split_once(": ")?;
        let value_start = line_start + key.len() + 2 + (value.len() - value.trim_start().len());
        let key = key.trim();
        let value = value.trim();
        if key.is_empty() || key.starts_with('-') || value.starts_with(['"', '\'']) {
            return None;
        }
        let quoted = if value.contains('"') {
            format!("'{}'", value.replace('\'', "''"))
        } else {
            format!("\"{}\"", value.replace('\\', "\\\\"))
        };
        let example = if quoted.chars().count() <= 80 {
            format!("`{key}: {quoted}`")
        } else {
            "the whole value in double quotes".to_owned()
        };
        // The edit is offered only when the value ends on its line: a plain value continued on
        // more indented lines below would be cut in two by the quotes.
        let next_line = text.get(line_end + 1..).and_then(|t| t.split('\n').next());
        let key_indent = line.len() - line.trim_start().len();
        let continued = next_line.is_some_and(|next| {
            !next.trim().is_empty() && next.len() - next.trim_start().len() > key_indent
        });
        let comment = value.contains(" #");
        let edit = (!continued && !comment).then(|| {
            let value_range =
                TextRange::new(value_start as u32, (value_start + value.len()) as u32);
            (value_range, quoted.clone())
        });
        return Some((
            at,
            format!("the frontmatter is not valid YAML: the value of `{key}` holds `: `, which YAML reads as the start of another field; quote the value: {example}"),
            edit,
        ));
    }
    None
}
