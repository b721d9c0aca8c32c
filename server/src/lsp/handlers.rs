//! Request handlers as plain functions of an index snapshot: no client, no lock, no I/O. The
//! backend runs them under `catch_unwind`; tests call them directly.

use tower_lsp_server::ls_types::*;

use super::convert;
use crate::diagnostic::FileId;
use crate::index::Index;
use crate::model::swarmkit::ArtifactKind;
use crate::syntax::PositionEncoding;

/// The indexed file and byte offset a position names; `None` for unknown documents and
/// positions past the end.
pub(super) fn at(
    index: &Index,
    document: &TextDocumentPositionParams,
    encoding: PositionEncoding,
) -> Option<(FileId, u32)> {
    let path = convert::path_of(&document.text_document.uri)?;
    let file = index.file_id(&path)?;
    let offset = convert::offset(index, file, document.position, encoding)?;
    Some((file, offset))
}

/// The places the engine found, as LSP locations (those in files no longer indexed left out).
fn locations_of(
    index: &Index,
    found: Vec<(FileId, crate::syntax::TextRange)>,
    enc: PositionEncoding,
) -> Vec<Location> {
    found
        .into_iter()
        .filter_map(|(f, r)| convert::location(index, f, r, enc))
        .collect()
}

/// The hover, with what the audit log says of a `requires:` rule under the cursor (from the
/// logs last read, `logs`).
pub fn hover(
    index: &Index,
    enc: PositionEncoding,
    params: &HoverParams,
    logs: &crate::ide::observed::Logs,
) -> Option<Hover> {
    let (file, offset) = at(index, &params.text_document_position_params, enc)?;
    let found = crate::ide::hover(index, file, offset)?;
    let mut markdown = found.markdown;
    if let Some(observed) = crate::ide::observed::hover(index, file, offset, logs) {
        markdown.push_str("\n\n---\n\n");
        markdown.push_str(&observed);
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: markdown,
        }),
        range: Some(convert::range(index, file, found.range, enc)),
    })
}

/// True when the position is on an agent's own id (see [`crate::ide::on_agent_definition`]).
pub fn on_agent_definition(index: &Index, enc: PositionEncoding, params: &HoverParams) -> bool {
    at(index, &params.text_document_position_params, enc)
        .is_some_and(|(file, offset)| crate::ide::on_agent_definition(index, file, offset))
}

/// The hover with a line of its own below it, in italics.
pub fn with_note(mut hover: Hover, note: &str) -> Hover {
    if let HoverContents::Markup(markup) = &mut hover.contents {
        markup.value.push_str(&format!("\n\n---\n\n_{note}_"));
    }
    hover
}

pub fn definition(
    index: &Index,
    enc: PositionEncoding,
    params: &GotoDefinitionParams,
) -> Option<GotoDefinitionResponse> {
    let (file, offset) = at(index, &params.text_document_position_params, enc)?;
    let found = crate::ide::definition(index, file, offset);
    let mut locations = locations_of(index, found, enc);
    // A SKILL.md link leads to a bundled file, which need not be in the index.
    if let Some(target) = crate::ide::link_target(index, file, offset) {
        locations.extend(file_start(&target));
    }
    match locations.len() {
        0 => None,
        1 => Some(GotoDefinitionResponse::Scalar(
            locations.into_iter().next()?,
        )),
        _ => Some(GotoDefinitionResponse::Array(locations)),
    }
}

pub fn declaration(
    index: &Index,
    enc: PositionEncoding,
    params: &request::GotoDeclarationParams,
) -> Option<request::GotoDeclarationResponse> {
    let (file, offset) = at(index, &params.text_document_position_params, enc)?;
    let found = crate::ide::declaration(index, file, offset);
    let locations = locations_of(index, found, enc);
    (!locations.is_empty()).then_some(GotoDefinitionResponse::Array(locations))
}

pub fn references(
    index: &Index,
    enc: PositionEncoding,
    params: &ReferenceParams,
) -> Option<Vec<Location>> {
    let (file, offset) = at(index, &params.text_document_position, enc)?;
    let include = params.context.include_declaration;
    let found = crate::ide::references(index, file, offset, include);
    let locations = locations_of(index, found, enc);
    (!locations.is_empty()).then_some(locations)
}

pub fn completion(
    index: &Index,
    enc: PositionEncoding,
    params: &CompletionParams,
) -> Option<CompletionResponse> {
    let (file, offset) = at(index, &params.text_document_position, enc)?;
    let found = crate::ide::completion(index, file, offset)?;
    let range = convert::range(index, file, found.range, enc);
    // Clients sort items by `sortText`, else by label; the core's order (a schema's keys as
    // written, the nearest chain targets first) is the one meant, so it is spelled out.
    let width = found.items.len().to_string().len();
    let items = found
        .items
        .into_iter()
        .enumerate()
        .map(|(i, item)| CompletionItem {
            sort_text: Some(format!("{i:0width$}")),
            kind: Some(match item.kind {
                crate::ide::CompletionKind::Skill => CompletionItemKind::FUNCTION,
                crate::ide::CompletionKind::Archetype => CompletionItemKind::CLASS,
                crate::ide::CompletionKind::McpServer => CompletionItemKind::MODULE,
                crate::ide::CompletionKind::Topology => CompletionItemKind::STRUCT,
                crate::ide::CompletionKind::Value => CompletionItemKind::ENUM_MEMBER,
                crate::ide::CompletionKind::Field => CompletionItemKind::PROPERTY,
                crate::ide::CompletionKind::File => CompletionItemKind::FILE,
                crate::ide::CompletionKind::Folder => CompletionItemKind::FOLDER,
                crate::ide::CompletionKind::Tool => CompletionItemKind::METHOD,
                crate::ide::CompletionKind::Argument => CompletionItemKind::VARIABLE,
            }),
            detail: item.detail,
            documentation: item.documentation.map(|value| {
                Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value,
                })
            }),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                range,
                item.label.clone(),
            ))),
            label: item.label,
            ..Default::default()
        })
        .collect();
    Some(CompletionResponse::Array(items))
}

/// The file a document names, when it is indexed.
pub(super) fn document(index: &Index, document: &TextDocumentIdentifier) -> Option<FileId> {
    index.file_id(&convert::path_of(&document.uri)?)
}

pub fn document_highlights(
    index: &Index,
    enc: PositionEncoding,
    params: &DocumentHighlightParams,
) -> Option<Vec<DocumentHighlight>> {
    let (file, offset) = at(index, &params.text_document_position_params, enc)?;
    let found: Vec<DocumentHighlight> = crate::ide::document_highlights(index, file, offset)
        .into_iter()
        .map(|(range, kind)| DocumentHighlight {
            range: convert::range(index, file, range, enc),
            kind: Some(match kind {
                crate::ide::HighlightKind::Definition => DocumentHighlightKind::WRITE,
                crate::ide::HighlightKind::Use => DocumentHighlightKind::READ,
            }),
        })
        .collect();
    (!found.is_empty()).then_some(found)
}

/// The hints inside the requested range (a range reaching past the end stops at the end).
pub fn inlay_hints(
    index: &Index,
    enc: PositionEncoding,
    params: &InlayHintParams,
) -> Option<Vec<InlayHint>> {
    let file = document(index, &params.text_document)?;
    let len = index.file(file)?.text.len() as u32;
    let start = convert::offset(index, file, params.range.start, enc)?;
    let end = convert::offset(index, file, params.range.end, enc).unwrap_or(len);
    let range = crate::syntax::TextRange::new(start, end.max(start));
    Some(
        crate::ide::inlay_hints(index, file, range)
            .into_iter()
            .map(|hint| InlayHint {
                position: convert::range(
                    index,
                    file,
                    crate::syntax::TextRange::empty(hint.offset),
                    enc,
                )
                .start,
                label: InlayHintLabel::String(hint.label),
                kind: None,
                text_edits: None,
                tooltip: Some(InlayHintTooltip::String(hint.tooltip)),
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
            .collect(),
    )
}

/// The client command the agent lenses run (the VS Code extension registers it; other editors
/// may map it to the server's `skillgraph.orderingGraph`).
pub const SHOW_ORDERING_GRAPH: &str = "skillgraph.showOrderingGraph";

/// The lenses: the ide's, and the audit log's one-line summary on each `requires:` rule.
pub fn code_lenses(
    index: &Index,
    enc: PositionEncoding,
    params: &CodeLensParams,
    logs: &crate::ide::observed::Logs,
) -> Option<Vec<CodeLens>> {
    let file = document(index, &params.text_document)?;
    let lenses: Vec<CodeLens> = crate::ide::code_lenses(index, file)
        .into_iter()
        .chain(crate::ide::observed::lenses(index, file, logs))
        .map(|lens| CodeLens {
            range: convert::range(index, file, lens.range, enc),
            command: Some(match lens.action {
                // A command without an id shows its title as plain text.
                crate::ide::LensAction::None => Command::new(lens.title, String::new(), None),
                crate::ide::LensAction::ShowOrderingGraph { agent } => Command::new(
                    lens.title,
                    SHOW_ORDERING_GRAPH.to_owned(),
                    Some(vec![serde_json::json!({
                        "uri": params.text_document.uri.as_str(),
                        "agent": agent,
                    })]),
                ),
            }),
            data: None,
        })
        .collect();
    (!lenses.is_empty()).then_some(lenses)
}

/// The start of a file named by path (it need not be in the index).
fn file_start(path: &std::path::Path) -> Option<Location> {
    Some(Location::new(
        convert::uri_of(path)?,
        Range::new(Position::new(0, 0), Position::new(0, 0)),
    ))
}

/// The links of a SKILL.md that lead to files of its folder, `output_schema` paths and a
/// config's `mcp-tool-lists` paths.
pub fn document_links(
    index: &Index,
    enc: PositionEncoding,
    params: &DocumentLinkParams,
) -> Option<Vec<DocumentLink>> {
    let path = convert::path_of(&params.text_document.uri)?;
    let file = index.file_id(&path)?;
    let links: Vec<DocumentLink> = crate::ide::document_links(index, file)
        .into_iter()
        .chain(crate::ide::path_links(index, file))
        .filter_map(|link| {
            Some(DocumentLink {
                range: convert::range(index, file, link.range, enc),
                target: Some(convert::uri_of(&link.target)?),
                tooltip: None,
                data: None,
            })
        })
        .collect();
    (!links.is_empty()).then_some(links)
}

pub fn document_symbols(
    index: &Index,
    enc: PositionEncoding,
    params: &DocumentSymbolParams,
) -> Option<DocumentSymbolResponse> {
    let path = convert::path_of(&params.text_document.uri)?;
    let file = index.file_id(&path)?;
    let symbols = crate::ide::document_symbols(index, file);
    if symbols.is_empty() {
        return None;
    }
    Some(DocumentSymbolResponse::Nested(
        symbols
            .into_iter()
            .map(|s| document_symbol(index, file, s, enc))
            .collect(),
    ))
}

pub fn workspace_symbols(
    index: &Index,
    enc: PositionEncoding,
    params: &WorkspaceSymbolParams,
) -> Option<WorkspaceSymbolResponse> {
    let symbols: Vec<WorkspaceSymbol> = crate::ide::workspace_symbols(index, &params.query)
        .into_iter()
        .filter_map(|s| {
            Some(WorkspaceSymbol {
                name: s.name,
                kind: symbol_kind(s.kind),
                tags: None,
                container_name: s.detail,
                location: OneOf::Left(convert::location(index, s.file, s.range, enc)?),
                data: None,
            })
        })
        .collect();
    Some(WorkspaceSymbolResponse::Nested(symbols))
}

fn symbol_kind(kind: crate::ide::SymbolKind) -> SymbolKind {
    match kind {
        // As completion shows them: a skill is a function, an archetype a class.
        crate::ide::SymbolKind::Artifact(kind) => match kind {
            ArtifactKind::Skill => SymbolKind::FUNCTION,
            ArtifactKind::Archetype => SymbolKind::CLASS,
            ArtifactKind::Topology => SymbolKind::STRUCT,
            ArtifactKind::Workspace => SymbolKind::PACKAGE,
            ArtifactKind::Trigger => SymbolKind::EVENT,
            ArtifactKind::Funnel => SymbolKind::INTERFACE,
            ArtifactKind::Contract => SymbolKind::OBJECT,
            ArtifactKind::RoleRegistry => SymbolKind::ENUM,
            ArtifactKind::ExecutorAdapter => SymbolKind::MODULE,
        },
        crate::ide::SymbolKind::SkillMd => SymbolKind::FUNCTION,
        crate::ide::SymbolKind::Agent => SymbolKind::OBJECT,
        crate::ide::SymbolKind::Subagent => SymbolKind::CLASS,
        crate::ide::SymbolKind::McpServer => SymbolKind::INTERFACE,
        crate::ide::SymbolKind::Field => SymbolKind::PROPERTY,
        crate::ide::SymbolKind::Heading => SymbolKind::STRING,
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn document_symbol(
    index: &Index,
    file: FileId,
    s: crate::ide::Symbol,
    enc: PositionEncoding,
) -> DocumentSymbol {
    DocumentSymbol {
        name: s.name,
        detail: s.detail,
        kind: symbol_kind(s.kind),
        tags: None,
        deprecated: None,
        range: convert::range(index, file, s.range, enc),
        selection_range: convert::range(index, file, s.selection_range, enc),
        children: Some(
            s.children
                .into_iter()
                .map(|c| document_symbol(index, file, c, enc))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::index::Change;

    /// The end-to-end fixture, indexed under a made-up root: handlers need no client and no disk.
    fn estate() -> (Index, PathBuf) {
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/estate");
        let root = PathBuf::from("/estate");
        let changes = [
            "workspace.yaml",
            "topologies/estate.yaml",
            "skills/list-conventions.yaml",
            "skills/get-convention.yaml",
            "skills/search-code.yaml",
        ]
        .iter()
        .map(|relative| Change::Set {
            path: root.join(relative),
            text: std::fs::read_to_string(fixture.join(relative))
                .unwrap()
                .into(),
        })
        .collect();
        let mut index = Index::new(&crate::rules::CHECKS);
        index.apply(changes);
        (index, root)
    }

    fn document(path: &Path) -> TextDocumentIdentifier {
        TextDocumentIdentifier {
            uri: convert::uri_of(path).unwrap(),
        }
    }

    fn position(path: &Path, line: u32, character: u32) -> TextDocumentPositionParams {
        TextDocumentPositionParams {
            text_document: document(path),
            position: Position::new(line, character),
        }
    }

    /// The definition at `line`:`character` of `path`, when the answer is one location.
    fn definition_at(index: &Index, path: &Path, line: u32, character: u32) -> Option<Location> {
        let params = GotoDefinitionParams {
            text_document_position_params: position(path, line, character),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        };
        match definition(index, PositionEncoding::Utf16, &params) {
            Some(GotoDefinitionResponse::Scalar(location)) => Some(location),
            _ => None,
        }
    }

    #[test]
    fn definition_of_a_required_skill_is_its_metadata_id() {
        let (index, root) = estate();
        let topology = root.join("topologies/estate.yaml");
        let location = definition_at(&index, &topology, 25, 12).expect("one definition");
        assert_eq!(
            convert::path_of(&location.uri),
            Some(root.join("skills/search-code.yaml"))
        );
    }

    #[test]
    fn unknown_documents_and_positions_past_the_end_answer_none() {
        let (index, root) = estate();
        let hover_at = |path: &Path, line| HoverParams {
            text_document_position_params: position(path, line, 0),
            work_done_progress_params: Default::default(),
        };
        let topology = root.join("topologies/estate.yaml");
        let logs = Default::default();
        assert!(hover(
            &index,
            PositionEncoding::Utf16,
            &hover_at(&topology, 9999),
            &logs
        )
        .is_none());
        let unknown = root.join("topologies/unknown.yaml");
        assert!(hover(
            &index,
            PositionEncoding::Utf16,
            &hover_at(&unknown, 0),
            &logs
        )
        .is_none());
    }

    #[test]
    fn document_symbols_name_the_agents() {
        let (index, root) = estate();
        let params = DocumentSymbolParams {
            text_document: document(&root.join("topologies/estate.yaml")),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        };
        let Some(DocumentSymbolResponse::Nested(symbols)) =
            document_symbols(&index, PositionEncoding::Utf16, &params)
        else {
            panic!("nested symbols expected");
        };
        let mut agents = Vec::new();
        let mut stack: Vec<&DocumentSymbol> = symbols.iter().collect();
        while let Some(symbol) = stack.pop() {
            agents.push(symbol.name.as_str());
            stack.extend(symbol.children.iter().flatten());
        }
        assert!(agents.contains(&"engineer"), "{agents:?}");
    }

    #[test]
    fn skill_md_links_lead_to_bundled_files() {
        let mut index = Index::new(&crate::rules::CHECKS);
        let skill = PathBuf::from("/r/skills/pdf/SKILL.md");
        index.apply(vec![
            Change::Set {
                path: skill.clone(),
                text: "---\nname: pdf\ndescription: d\n---\nSee [api](references/api.md).\n".into(),
            },
            Change::SkillFiles {
                dir: PathBuf::from("/r/skills/pdf"),
                files: vec![
                    PathBuf::from("SKILL.md"),
                    PathBuf::from("references/api.md"),
                ],
            },
        ]);
        let target = convert::uri_of(Path::new("/r/skills/pdf/references/api.md")).unwrap();
        let params = DocumentLinkParams {
            text_document: document(&skill),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        };
        let links = document_links(&index, PositionEncoding::Utf16, &params).unwrap();
        assert_eq!(links.len(), 1);
        assert_eq!(links[0].target.as_ref(), Some(&target));
        assert_eq!(links[0].range.start, Position::new(4, 10));
        let location = definition_at(&index, &skill, 4, 14).expect("the bundled file");
        assert_eq!(location.uri, target);
    }
}
