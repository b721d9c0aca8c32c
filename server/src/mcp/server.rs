//! The MCP handler: tool calls handed to `tools` on blocking threads, the rules' documentation
//! as resources, and the roots a call reads.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, ListResourcesResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{
    tool, tool_handler, tool_router, ErrorData as McpError, Peer, RoleServer, ServerHandler,
};
use tokio::sync::{Mutex, Semaphore};

use super::roots::{path_of_file_uri, Roots};
use super::tools::{self, ToolError};

/// Where a code's documentation is served: `skillgraph://rules/agent.unknown-skill`.
const RULES_URI: &str = "skillgraph://rules/";
/// How long the client has to answer `roots/list`.
const ROOTS_TIMEOUT: Duration = Duration::from_secs(5);
/// Checks run at once: each may hold a workspace's index, and the machine's cores are shared.
const CONCURRENT_CALLS: usize = 2;

#[derive(Clone)]
pub struct Server {
    /// The roots given on the command line; they win over the client's.
    fixed: Option<Roots>,
    /// The client's roots (or the working directory), asked for once and again after the
    /// client says they changed.
    asked: Arc<Mutex<Option<Roots>>>,
    calls: Arc<Semaphore>,
    tool_router: ToolRouter<Self>,
}

impl Server {
    pub fn new(fixed: Option<Roots>) -> Server {
        Server {
            fixed,
            asked: Arc::new(Mutex::new(None)),
            calls: Arc::new(Semaphore::new(CONCURRENT_CALLS)),
            tool_router: Self::tool_router(),
        }
    }

    /// The roots a call reads: the command line's, else the client's, else the working
    /// directory.
    async fn roots(&self, peer: &Peer<RoleServer>) -> Result<Roots, McpError> {
        if let Some(fixed) = &self.fixed {
            return Ok(fixed.clone());
        }
        let mut asked = self.asked.lock().await;
        if let Some(roots) = asked.as_ref() {
            return Ok(roots.clone());
        }
        let roots = match client_roots(peer).await {
            Some(roots) => roots,
            None => {
                let cwd = std::env::current_dir().map_err(|error| {
                    McpError::internal_error(
                        format!("cannot read the working directory: {error}"),
                        None,
                    )
                })?;
                Roots::new(&[cwd]).map_err(|error| McpError::internal_error(error, None))?
            }
        };
        *asked = Some(roots.clone());
        Ok(roots)
    }

    /// Runs a tool on a blocking thread: a panic is that call's error, never the server's end.
    async fn call<I: Send + 'static>(
        &self,
        peer: &Peer<RoleServer>,
        input: I,
        tool: fn(&Roots, I) -> Result<Vec<String>, ToolError>,
    ) -> Result<CallToolResult, McpError> {
        let roots = self.roots(peer).await?;
        let _permit = self
            .calls
            .acquire()
            .await
            .map_err(|_| McpError::internal_error("shutting down", None))?;
        match tokio::task::spawn_blocking(move || tool(&roots, input)).await {
            Ok(Ok(contents)) => Ok(CallToolResult::success(
                contents.into_iter().map(ContentBlock::text).collect(),
            )),
            // Arguments the tool cannot use (a path outside the roots, an agent that does not
            // exist) are a tool error the model reads and can correct, as the specification
            // asks of input validation (and as the SDK answers arguments that do not parse);
            // a protocol error is for a request that names no tool.
            Ok(Err(ToolError::BadArguments(message) | ToolError::Failed(message))) => {
                Ok(CallToolResult::error(vec![ContentBlock::text(message)]))
            }
            Err(error) => {
                let why = match error.try_into_panic() {
                    Ok(panic) => panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_default(),
                    Err(error) => error.to_string(),
                };
                eprintln!("skillgraph mcp: a call failed: {why}");
                Err(McpError::internal_error(
                    format!("skillgraph failed on this call (a bug; please report it): {why}"),
                    None,
                ))
            }
        }
    }
}

/// The client's roots that are local folders, when it offers roots and answers in time.
/// Roots are deprecated from the 2026-07-28 revision on (SEP-2577), which this server does not
/// speak (see `supported_protocol_versions`); the clients of today's revisions send them, and
/// without them a server started by an editor reads its working directory instead.
#[allow(deprecated)]
async fn client_roots(peer: &Peer<RoleServer>) -> Option<Roots> {
    let offers = peer
        .peer_info()
        .is_some_and(|info| info.capabilities.roots.is_some());
    if !offers {
        return None;
    }
    let listed = match tokio::time::timeout(ROOTS_TIMEOUT, peer.list_roots()).await {
        Ok(Ok(listed)) => listed,
        Ok(Err(error)) => {
            eprintln!("skillgraph mcp: the client's roots: {error}; reading the working directory");
            return None;
        }
        Err(_) => {
            eprintln!("skillgraph mcp: the client did not list its roots in time; reading the working directory");
            return None;
        }
    };
    let paths: Vec<_> = listed
        .roots
        .iter()
        .filter_map(|root| path_of_file_uri(&root.uri))
        .filter(|path| path.exists())
        .collect();
    Roots::new(&paths).ok()
}

#[tool_router]
impl Server {
    #[tool(
        description = "Check SwarmKit workspaces and SKILL.md skills: the same JSON document as `skillgraph check --format json` (diagnostics with code, severity, range, message, related locations; a summary). Read-only."
    )]
    async fn check(
        &self,
        Parameters(input): Parameters<tools::CheckInput>,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        self.call(&peer, input, tools::check).await
    }

    #[tool(
        description = "Explain the ordering of a topology agent (call order of its `requires:` rules, blocked skills and why, the runtime's refusal text, depends_on) or of a SKILL.md skill (its chain and dependencies), as the editor's hover says it. Give `agent` or `skill`."
    )]
    async fn explain(
        &self,
        Parameters(input): Parameters<tools::ExplainInput>,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        self.call(&peer, input, tools::explain).await
    }

    #[tool(
        description = "Draw the ordering rules (agents and depends_on, requires rules with their call order, composed skills, SKILL.md chains) as Mermaid or JSON, as `skillgraph graph` does. Optionally one agent or one topology."
    )]
    async fn graph(
        &self,
        Parameters(input): Parameters<tools::GraphInput>,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        self.call(&peer, input, tools::graph).await
    }

    #[tool(
        description = "The safe fixes (those `skillgraph check --fix` applies) as a unified diff, with a count. Never writes a file."
    )]
    async fn fixes(
        &self,
        Parameters(input): Parameters<tools::FixesInput>,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        self.call(&peer, input, tools::fixes).await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        );
        info.server_info = Implementation::new("skillgraph", env!("CARGO_PKG_VERSION"));
        info.instructions = Some(
            "skillgraph checks SwarmKit workspaces (topologies, agents, skills, `requires:` ordering rules) and Agent Skills SKILL.md files. `check` reports problems as JSON; `explain` says in what order an agent's skills run and why one is blocked; `graph` draws the ordering rules; `fixes` shows the safe fixes as a diff. Each diagnostic code is documented at skillgraph://rules/<code>.".to_owned(),
        );
        info
    }

    /// Up to the last revision with an `initialize` handshake: the client's roots are asked
    /// for with `roots/list`, a request the server sends within such a session.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(
            &ProtocolVersion::LATEST_WITH_INITIALIZE,
        ))
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        *self.asked.lock().await = None;
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let resources = crate::rules::catalogue::all()
            .map(|rule| {
                Resource::new(format!("{RULES_URI}{}", rule.code), rule.code.to_string())
                    .with_description(rule.summary)
                    .with_mime_type("text/markdown")
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let rule = request
            .uri
            .strip_prefix(RULES_URI)
            .and_then(crate::diagnostic::codes::lookup)
            .and_then(crate::rules::catalogue::lookup)
            .ok_or_else(|| {
                McpError::resource_not_found(
                    format!(
                        "no resource {}: the rules are at {RULES_URI}<code>, e.g. {RULES_URI}agent.unknown-skill",
                        request.uri
                    ),
                    None,
                )
            })?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(rule.markdown(), request.uri).with_mime_type("text/markdown")
        ])
        .into())
    }
}
