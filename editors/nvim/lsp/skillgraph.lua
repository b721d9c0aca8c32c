-- skillgraph language server: SwarmKit workspaces and Agent Skills (SKILL.md).
--
-- A plain config table in the shape Neovim 0.11's `vim.lsp.config` and nvim-lspconfig read from
-- an `lsp/` directory on 'runtimepath'. Older Neovims can `dofile` it and hand the fields to
-- `vim.lsp.start_client` (see ../README.md). It must stay free of 0.11-only calls for that reason.
return {
  cmd = { 'skillgraph', 'lsp' },
  -- The server itself decides which of these files are its own (SKILL.md, YAML inside a SwarmKit
  -- workspace) and stays silent on the rest, so attaching to all of them is safe.
  filetypes = { 'yaml', 'markdown' },
  -- workspace.yaml marks a SwarmKit workspace, skillgraph.toml a configured root; .git catches
  -- repositories of SKILL.md skills that have neither.
  root_markers = { 'workspace.yaml', 'skillgraph.toml', '.git' },
  -- The keys of skillgraph.toml, e.g. { tools = { presets = { 'claude-code' } } }.
  -- `vim.empty_dict()` rather than `{}`: Neovim encodes an empty Lua table as the JSON array `[]`,
  -- which is not the object the server expects in `workspace/didChangeConfiguration`.
  settings = { skillgraph = vim.empty_dict() },
  -- The server also reads its configuration from `initializationOptions`, so that the first index
  -- already uses it; send the same table there unless the user set `init_options` themselves.
  -- `<C-x><C-o>` completes from the server. Neovim 0.11 sets this by itself; 0.7-0.10 do not, and
  -- their setup (../README.md) passes this function to `vim.lsp.start_client`.
  on_attach = function(_, bufnr)
    vim.api.nvim_buf_set_option(bufnr, 'omnifunc', 'v:lua.vim.lsp.omnifunc')
  end,
  before_init = function(params, config)
    local settings = config.settings and config.settings.skillgraph
    if params.initializationOptions == nil and type(settings) == 'table' then
      params.initializationOptions = settings
    end
  end,
}
