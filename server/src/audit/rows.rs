//! What one `skill.executed` row says: allowed (with or without an error result), refused for a
//! missing prerequisite (and which), or refused for another reason. The texts recognised are
//! the runtime's (swarmkit-runtime 1.265.0, checked 2026-12-04), each with its source below.

use std::borrow::Cow;

/// `DENIED_MARK` in `langgraph_compiler/_skill_executor.py`: a model-path refusal's result is
/// `[skill:<id>] DENIED: <reason>` (`is_refusal` reads it the same way).
const DENIED_MARK: &str = "] DENIED: ";

/// The middle of `prerequisites.refusal` (`prerequisites.py`): `<skill> requires <names>, which
/// has not been called in this session. Call <names> first, then retry.` (`which have` for
/// several names).
const NOT_CALLED_ONE: &str = ", which has not been called in this session. Call ";
const NOT_CALLED_MANY: &str = ", which have not been called in this session. Call ";
const RETRY: &str = " first, then retry.";

/// The text an MCP error result reaches the log as, from a FastMCP server (mcp 1.x,
/// `mcp/server/fastmcp/tools/base.py`, `Tool.run`: `ToolError(f"Error executing tool {name}:
/// {e}")`). The row itself does not flag the error (it is an `allow`); only this text does.
const MCP_ERROR: &str = "Error executing tool ";

/// What a call row says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The runtime let the call through. `error`: its result was an error (an MCP error result,
    /// or a call that failed on the model path), so the ledger did not record it.
    Allowed { error: bool },
    /// Refused for missing prerequisites: the guarded skill and what the runtime said was missing.
    Prerequisite { skill: String, missing: Vec<String> },
    /// Refused for another reason (governance, scope, an unknown tool).
    Other,
}

/// Classifies a `skill.executed` row from its `policy_decision`, `policy_reason` and result
/// text. `policy_decision` is `allow` or `deny` since 1.227.0 on both paths; an older log has it
/// NULL, and the refusal is then recognised from the result text alone.
pub fn classify(decision: Option<&str>, reason: Option<&str>, result: Option<&str>) -> Outcome {
    match decision {
        Some("deny") => {
            // The model path puts the sentence in `policy_reason` (cut to 500 characters); the
            // harness path leaves it NULL and the sentence is the result text.
            let parsed = reason
                .and_then(parse_refusal)
                .or_else(|| result.and_then(refusal_in_result));
            match parsed {
                Some((skill, missing)) => Outcome::Prerequisite { skill, missing },
                None => Outcome::Other,
            }
        }
        Some("allow") => Outcome::Allowed {
            error: result.is_some_and(is_error_result),
        },
        // Older logs (or any other value): the result text decides.
        _ => match result {
            Some(text) if is_model_path_refusal(text) => match refusal_in_result(text) {
                Some((skill, missing)) => Outcome::Prerequisite { skill, missing },
                None => Outcome::Other,
            },
            Some(text) => match parse_refusal(text) {
                Some((skill, missing)) => Outcome::Prerequisite { skill, missing },
                None => Outcome::Allowed {
                    error: is_error_result(text),
                },
            },
            None => Outcome::Allowed { error: false },
        },
    }
}

/// `is_refusal` in `_skill_executor.py`: `[skill:` first, the mark on the first line.
fn is_model_path_refusal(text: &str) -> bool {
    text.starts_with("[skill:") && text.split('\n').next().unwrap_or("").contains(DENIED_MARK)
}

/// The refusal sentence in a result: after the mark on the model path, the whole text on the
/// harness path.
fn refusal_in_result(text: &str) -> Option<(String, Vec<String>)> {
    if is_model_path_refusal(text) {
        let (_, after) = text.split_once(DENIED_MARK)?;
        return parse_refusal(after);
    }
    parse_refusal(text)
}

/// A result the ledger does not record although the call was allowed: a FastMCP error result
/// (see `MCP_ERROR`), or a model-path failure, which `execute_skill` returns as `[skill:<id>]
/// MCP call failed…`, `… timed out…` or the lookup error, all starting `[skill:`.
pub fn is_error_result(text: &str) -> bool {
    text.starts_with(MCP_ERROR) || text.starts_with("[skill:")
}

/// Reads `prerequisites.refusal`'s sentence back: the guarded skill and the missing names.
pub fn parse_refusal(text: &str) -> Option<(String, Vec<String>)> {
    let text = text.trim();
    let body = text.strip_suffix(RETRY)?;
    let (head, called) = body
        .split_once(NOT_CALLED_ONE)
        .or_else(|| body.split_once(NOT_CALLED_MANY))?;
    let (skill, names) = head.split_once(" requires ")?;
    if skill.is_empty() || names != called || skill.contains(char::is_whitespace) {
        return None;
    }
    let missing: Vec<String> = names.split(", ").map(str::to_owned).collect();
    if missing.iter().any(|m| m.is_empty()) {
        return None;
    }
    Some((skill.to_owned(), missing))
}

/// The payload's `outputs.result`, as both paths write it (`{"inputs": …, "outputs": {"result":
/// …}}`, the result cut to 1,000 characters by the runtime). `None` for a payload that is not
/// such JSON. Only the result is kept: the inputs, however large, are skipped by the parser.
pub fn result_of_payload(payload: &str) -> Option<Cow<'_, str>> {
    #[derive(serde::Deserialize)]
    struct Payload<'a> {
        #[serde(borrow)]
        outputs: Option<Outputs<'a>>,
    }
    #[derive(serde::Deserialize)]
    struct Outputs<'a> {
        #[serde(borrow)]
        result: Option<Cow<'a, str>>,
    }
    let payload: Payload<'_> = serde_json::from_str(payload).ok()?;
    payload.outputs?.result
}

#[cfg(test)]
mod tests {
    use super::super::notes_rows::REFUSAL;
    use super::*;

    #[test]
    fn reads_the_refusal_sentence() {
        assert_eq!(
            parse_refusal(REFUSAL),
            Some(("get-note".to_owned(), vec!["list-notes".to_owned()]))
        );
        let many = "note-stats requires list-notes, get-note, which have not been called in this session. Call list-notes, get-note first, then retry.";
        assert_eq!(
            parse_refusal(many).map(|(_, m)| m),
            Some(vec!["list-notes".to_owned(), "get-note".to_owned()])
        );
        // Governance refusals and other texts are not prerequisite refusals.
        for other in [
            "mock: server permission 'strict' requires explicit approval",
            "a requires b, which has not been called in this session. Call c first, then retry.",
            "",
        ] {
            assert_eq!(parse_refusal(other), None, "{other}");
        }
    }

    #[test]
    fn classifies_each_path_and_the_older_form() {
        let model_result = format!("[skill:get-note]] DENIED: {REFUSAL}");
        let prerequisite = Outcome::Prerequisite {
            skill: "get-note".to_owned(),
            missing: vec!["list-notes".to_owned()],
        };
        // Model path: the reason column.
        assert_eq!(
            classify(Some("deny"), Some(REFUSAL), Some(&model_result)),
            prerequisite
        );
        // Harness path: reason NULL, the sentence is the result.
        assert_eq!(classify(Some("deny"), None, Some(REFUSAL)), prerequisite);
        // Older logs: no decision; the result says it.
        assert_eq!(classify(None, None, Some(&model_result)), prerequisite);
        assert_eq!(classify(None, None, Some(REFUSAL)), prerequisite);
        assert_eq!(
            classify(None, None, Some("[skill:x] DENIED: governance says no")),
            Outcome::Other
        );
        assert_eq!(
            classify(Some("deny"), Some("scope missing"), None),
            Outcome::Other
        );
        let error = "Error executing tool list_notes: listing notes failed\n[source: notes:list_notes | 4ms]";
        assert_eq!(
            classify(Some("allow"), None, Some(error)),
            Outcome::Allowed { error: true }
        );
        assert_eq!(
            classify(None, None, Some(error)),
            Outcome::Allowed { error: true }
        );
        assert_eq!(
            classify(Some("allow"), None, Some("Available notes: N-1")),
            Outcome::Allowed { error: false }
        );
        assert_eq!(
            classify(None, None, None),
            Outcome::Allowed { error: false }
        );
    }

    #[test]
    fn takes_the_result_from_a_payload_of_any_size() {
        let big = "x".repeat(10 << 20);
        let payload =
            format!(r#"{{"inputs": {{"q": "{big}"}}, "outputs": {{"result": "ok\nline"}}}}"#);
        assert_eq!(result_of_payload(&payload).as_deref(), Some("ok\nline"));
        assert_eq!(result_of_payload("not json"), None);
        assert_eq!(result_of_payload(r#"{"outputs": null}"#), None);
        assert_eq!(result_of_payload(r#"{"outputs": {"result": 3}}"#), None);
    }
}
