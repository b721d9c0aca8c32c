//! The byte stream between the editor and the server.

use tower_lsp_server::{ClientSocket, LspService, Server};

use super::Backend;

/// Serves the protocol on stdin/stdout until the client says `exit` or closes its side.
pub(super) async fn serve(service: LspService<Backend>, socket: ClientSocket) {
    Server::new(tokio::io::stdin(), tokio::io::stdout(), socket)
        .serve(service)
        .await;
}
