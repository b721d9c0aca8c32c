//! What a SKILL.md's body costs when a host reads it: its lines and an estimate of its tokens,
//! with where each budget is first passed (`model::hosts::BODY_TOKENS`, `BODY_LINES`).
//!
//! Tokens are estimated, not counted: no host's tokenizer is public (Claude's is not), and a
//! tokenizer of another model would add megabytes of vocabulary to the binary to give a number
//! that is still another model's. The estimate is one token per four characters, the rule of
//! thumb tokenizer vendors publish for English prose (`CHARS_PER_TOKEN`); it is linear, stable
//! across versions, and the messages call it an estimate.

use crate::syntax::TextRange;

use super::hosts::{BODY_LINES, BODY_TOKENS};

/// Characters per token in the estimate.
pub const CHARS_PER_TOKEN: usize = 4;

/// The body's size, and where it first passes each budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BodyCost {
    /// Where the body starts in the file.
    pub start: usize,
    pub lines: usize,
    pub chars: usize,
    /// The first line past the line budget (the whole line, without its ending).
    pub past_lines: Option<TextRange>,
    /// The line holding the first character past the token budget.
    pub past_tokens: Option<TextRange>,
}

impl BodyCost {
    /// The estimated tokens: characters over [`CHARS_PER_TOKEN`], rounded up.
    pub fn tokens(&self) -> usize {
        self.chars.div_ceil(CHARS_PER_TOKEN)
    }

    /// One pass over the body starting at `start`.
    pub fn of(text: &str, start: usize) -> BodyCost {
        let body = &text[start.min(text.len())..];
        let token_budget_chars = BODY_TOKENS.limit * CHARS_PER_TOKEN;
        let mut cost = BodyCost {
            start,
            lines: 0,
            chars: 0,
            past_lines: None,
            past_tokens: None,
        };
        let mut at = start;
        for line in super::skill_links::lines_with_ends(body) {
            let content = line.trim_end_matches(['\n', '\r']);
            let range = TextRange::new(at as u32, (at + content.len()) as u32);
            at += line.len();
            cost.lines += 1;
            // Only lines with non-ASCII text need a character count; the rest count their bytes.
            let chars = if line.is_ascii() {
                line.len()
            } else {
                line.chars().count()
            };
            cost.chars += chars;
            if cost.lines == BODY_LINES.limit + 1 {
                cost.past_lines = Some(range);
            }
            if cost.past_tokens.is_none() && cost.chars > token_budget_chars {
                cost.past_tokens = Some(range);
            }
        }
        cost
    }

    pub fn over_lines(&self) -> bool {
        self.lines > BODY_LINES.limit
    }

    pub fn over_tokens(&self) -> bool {
        self.tokens() > BODY_TOKENS.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_characters_and_where_the_budgets_pass() {
        let text = "---\nname: x\n---\nab\r\ncé\n";
        let cost = BodyCost::of(text, 16);
        assert_eq!((cost.lines, cost.chars, cost.tokens()), (2, 7, 2));
        assert_eq!((cost.past_lines, cost.past_tokens), (None, None));

        let long = format!("---\n---\n{}", "word word\n".repeat(2100));
        let cost = BodyCost::of(&long, 8);
        assert!(cost.over_lines() && cost.over_tokens());
        let past = cost.past_lines.unwrap();
        assert_eq!(past.start as usize, 8 + 500 * 10);
        assert_eq!(&long[past.start as usize..past.end as usize], "word word");
        // 20,000 characters are 5,000 tokens: the 2,001st line passes them.
        assert_eq!(
            cost.past_tokens.unwrap().start as usize,
            8 + 2000 * 10,
            "{}",
            long.len()
        );
    }

    #[test]
    fn a_four_megabyte_line_is_one_pass() {
        let text = format!("---\n---\n{}", "é".repeat(2_000_000));
        let cost = BodyCost::of(&text, 8);
        assert_eq!((cost.lines, cost.chars), (1, 2_000_000));
        assert_eq!(cost.tokens(), 500_000);
    }
}
