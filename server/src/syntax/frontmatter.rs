//! Splits a SKILL.md into its YAML frontmatter and Markdown body. The frontmatter is the text
//! between a first line `---` and the next line that is `---`; only that part is YAML.

use super::{TextRange, YamlDocument};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frontmatter {
    /// The file does not start with a `---` line.
    Missing,
    /// A `---` opens the block but no closing `---` line follows.
    Unclosed { open: TextRange },
    /// `yaml` is the range of the text between the fences (possibly empty).
    Closed {
        open: TextRange,
        yaml: TextRange,
        close: TextRange,
    },
}

/// `bom` is the length of a byte-order mark at the start of `text`, skipped before the fence.
pub fn split_frontmatter(text: &str, bom: usize) -> Frontmatter {
    let mut lines = Lines { text, at: bom };
    let Some((start, first)) = lines.next() else {
        return Frontmatter::Missing;
    };
    if first.trim_end() != "---" {
        return Frontmatter::Missing;
    }
    let open = TextRange::new(start as u32, (start + 3) as u32);
    let yaml_start = lines.at;
    for (line_start, line) in lines {
        if line.trim_end() == "---" {
            return Frontmatter::Closed {
                open,
                yaml: TextRange::new(yaml_start as u32, line_start as u32),
                close: TextRange::new(line_start as u32, (line_start + 3) as u32),
            };
        }
    }
    Frontmatter::Unclosed { open }
}

/// The YAML of a closed frontmatter, parsed with offsets in the whole file (so every range in
/// the tree is a range of `text`); `None` when the frontmatter is missing or unclosed, since then
/// no part of the file is known to be YAML.
pub fn frontmatter_yaml(text: &str, frontmatter: &Frontmatter) -> Option<YamlDocument> {
    match frontmatter {
        Frontmatter::Closed { yaml, .. } => Some(YamlDocument::parse(
            &text[yaml.start as usize..yaml.end as usize],
            yaml.start,
        )),
        _ => None,
    }
}

/// Lines with their start offsets; the yielded text excludes the line ending.
struct Lines<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.text.len() {
            return None;
        }
        let start = self.at;
        let rest = &self.text[start..];
        let (len, ending) = match rest.find(['\n', '\r']) {
            None => (rest.len(), 0),
            Some(i) if rest[i..].starts_with("\r\n") => (i, 2),
            Some(i) => (i, 1),
        };
        self.at = start + len + ending;
        Some((start, &rest[..len]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_block() {
        let text = "---\nname: a\n---\n# Body\n";
        let Frontmatter::Closed { yaml, close, .. } = split_frontmatter(text, 0) else {
            panic!("expected a closed frontmatter");
        };
        assert_eq!(&text[yaml.start as usize..yaml.end as usize], "name: a\n");
        assert_eq!(close.start, 12);
    }

    #[test]
    fn crlf_and_bom() {
        let text = "\u{feff}---\r\nname: a\r\n---\r\nbody";
        let Frontmatter::Closed { open, yaml, .. } = split_frontmatter(text, 3) else {
            panic!("expected a closed frontmatter");
        };
        assert_eq!(open.start, 3);
        assert_eq!(&text[yaml.start as usize..yaml.end as usize], "name: a\r\n");
    }

    #[test]
    fn missing_and_unclosed() {
        assert_eq!(split_frontmatter("# Title\n", 0), Frontmatter::Missing);
        assert_eq!(split_frontmatter("", 0), Frontmatter::Missing);
        assert_eq!(
            split_frontmatter("---\nname: a\n", 0),
            Frontmatter::Unclosed {
                open: TextRange::new(0, 3)
            }
        );
    }

    #[test]
    fn frontmatter_yaml_has_offsets_in_the_file() {
        let text = "---\nname: a\n---\n# Body\n";
        let frontmatter = split_frontmatter(text, 0);
        let yaml = frontmatter_yaml(text, &frontmatter).expect("a closed frontmatter");
        let (key, value) = yaml
            .root()
            .and_then(|r| r.entries().next())
            .expect("one entry");
        assert_eq!(key.range(), TextRange::new(4, 8));
        assert_eq!(
            &text[value.range().start as usize..value.range().end as usize],
            "a"
        );
        for open in ["# no frontmatter\n", "---\nname: a\n"] {
            assert!(frontmatter_yaml(open, &split_frontmatter(open, 0)).is_none());
        }
    }
}
