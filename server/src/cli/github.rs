//! `--format github`: one GitHub Actions workflow command per diagnostic, which the runner turns
//! into an annotation on the pull request's diff:
//!
//! ```text
//! ::error file=skills/a.yaml,line=2,col=19,endLine=2,endColumn=24,title=yaml.duplicate-key::`alpha` appears twice
//! ```
//!
//! Lines and columns are 1-based, columns in UTF-16 code units (as in the SARIF output). Errors are
//! `::error`, warnings `::warning`, info and hints `::notice`. Related locations have no field of
//! their own, so they are appended to the message, one line each. Values are escaped as the
//! runner expects (`%`, CR and LF everywhere; `:` and `,` also in properties).

use std::io;

use super::Report;
use crate::diagnostic::Severity;
use crate::syntax::PositionEncoding;

pub(super) fn render(report: &Report, out: &mut dyn io::Write) -> io::Result<()> {
    for diagnostic in &report.diagnostics {
        let command = match diagnostic.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info | Severity::Hint => "notice",
        };
        let at = report.locate(diagnostic.file, diagnostic.range, PositionEncoding::Utf16);
        let mut message = diagnostic.message.clone();
        for related in &diagnostic.related {
            let place = report.locate(related.file, related.range, PositionEncoding::Utf16);
            message.push_str(&format!(
                "\nrelated: {}:{}:{}: {}",
                place.path,
                place.start.line + 1,
                place.start.col + 1,
                related.message
            ));
        }
        writeln!(
            out,
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
            escape_property(at.path),
            at.start.line + 1,
            at.start.col + 1,
            at.end.line + 1,
            at.end.col + 1,
            escape_property(diagnostic.code.name()),
            escape_data(&message),
        )?;
    }
    Ok(())
}

/// A command's message. Control characters are percent-encoded too: the runner decodes only
/// `%25`, `%0D`, `%0A`, `%3A` and `%2C`, so `%1B` stays as written in the log, and a file name
/// holding an escape sequence cannot color or hide lines of it.
fn escape_data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            c if c.is_control() => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// A command's `key=value` property.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::cli::fixture;
    use crate::diagnostic::Code;

    #[test]
    fn escaping() {
        assert_eq!(escape_data("100%: a,b\r\nc"), "100%25: a,b%0D%0Ac");
        assert_eq!(escape_data("ctl\u{1b}[31m\t"), "ctl%1B[31m%09");
        assert_eq!(escape_property("100%: a,b\r\nc"), "100%25%3A a%2Cb%0D%0Ac");
    }

    #[test]
    fn standard_report() {
        let fixture = fixture::standard();
        expect![[r#"
            ::notice file=skills/crlf.yaml,line=2,col=1,endLine=4,endColumn=10,title=test.sort-list::sort this list
            ::warning file=skills/crlf.yaml,line=4,col=5,endLine=4,endColumn=10,title=test.duplicate-grant::`alpha` is granted twice%0Arelated: skills/crlf.yaml:3:5: first granted here%0Arelated: skills/emoji.yaml:2:19: also granted here, with a comma, 100%25: see
            ::notice file=skills/emoji.yaml,line=2,col=11,endLine=2,endColumn=11,title=test.emoji::an emoji in a skill name%0Asecond line
            ::error file=skills/emoji.yaml,line=2,col=19,endLine=2,endColumn=24,title=yaml.duplicate-key::`alpha` appears twice
        "#]]
        .assert_eq(&fixture.rendered_by(render));
    }

    #[test]
    fn properties_are_escaped() {
        let mut fixture =
            fixture::Fixture::new(&[(fixture::CRLF, "dir,with:odd%/a.yaml", fixture::CRLF_TEXT)]);
        fixture.diagnostics = vec![crate::diagnostic::Diagnostic {
            file: fixture::CRLF,
            range: fixture::find(fixture::CRLF_TEXT, "b", 0),
            severity: Severity::Error,
            code: Code::made_up("test.odd-path", Severity::Error),
            message: "odd".into(),
            related: vec![],
            fixes: Vec::new(),
        }];
        expect![[r#"
            ::error file=dir%2Cwith%3Aodd%25/a.yaml,line=1,col=5,endLine=1,endColumn=6,title=test.odd-path::odd
        "#]]
        .assert_eq(&fixture.rendered_by(render));
    }

    #[test]
    fn hostile_ranges_do_not_panic() {
        let (output, diagnostics) = fixture::hostile_rendered_by(render);
        assert_eq!(output.lines().count(), diagnostics);
    }
}
