-- Headless end-to-end test of editors/nvim/lsp/skillgraph.lua against a real skillgraph binary.
--
-- Run through test/run.sh, which sets SKILLGRAPH_BIN. Written for the oldest Neovim we support,
-- Debian's 0.7.2 (`vim.lsp.start_client`, no `vim.fs`, no `vim.lsp.start`); where a later
-- version replaced an API, the newer one is used when present.
--
-- It opens fixture/topologies/hello.yaml, whose root agent grants `say-hello` (defined in
-- fixture/skills/say-hello.yaml) and the misspelt `serach-code`, and checks:
--   (a) a diagnostic with code agent.unknown-skill arrives on the `serach-code` line;
--   (b) hover on the `say-hello` grant returns markdown that names `say-hello`;
--   (c) definition on the `say-hello` grant points into skills/say-hello.yaml;
--   (d) a code action replaces the misspelt `serach-code`, and applying it fixes the buffer.

local uv = vim.uv or vim.loop
local TIMEOUT_MS = 10000

local passed, failed = 0, 0

local function now_ms()
  return uv.hrtime() / 1e6
end

local function say(line)
  io.stdout:write(line, '\n')
  io.stdout:flush()
end

local function check(name, ok, detail)
  if ok then
    passed = passed + 1
    say('PASS ' .. name)
  else
    failed = failed + 1
    say('FAIL ' .. name .. (detail and (': ' .. detail) or ''))
  end
end

-- Both sides of every path comparison go through realpath, so a checkout reached through a
-- symlink compares equal however the server spells its URIs.
local function realpath(path)
  return uv.fs_realpath(path) or path
end

local script_dir = realpath(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h'))
local nvim_dir = realpath(script_dir .. '/..')
local fixture = realpath(script_dir .. '/fixture')
local topology = realpath(fixture .. '/topologies/hello.yaml')
local skill_file = realpath(fixture .. '/skills/say-hello.yaml')

--- Nearest directory at or above `start` that holds one of `markers`, as `root_markers` means it.
local function find_root(start, markers)
  local dir = start
  while true do
    for _, marker in ipairs(markers) do
      if uv.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return nil
    end
    dir = parent
  end
end

--- 0-based line and column of the first occurrence of `text` in the buffer.
local function find_text(bufnr, text)
  for lnum, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(text, 1, true)
    if col then
      return lnum - 1, col - 1
    end
  end
  error('fixture text not found: ' .. text)
end

--- Concatenates every form LSP allows for hover contents into one string; also says whether it
--- was declared as markdown (MarkedString and MarkedString[] are markdown by definition).
local function hover_text(contents)
  if type(contents) == 'string' then
    return contents, true
  end
  if type(contents) ~= 'table' then
    return '', false
  end
  if contents.kind then -- MarkupContent
    return contents.value or '', contents.kind == 'markdown'
  end
  if contents.value then -- { language, value }
    return contents.value, true
  end
  local parts = {}
  for _, item in ipairs(contents) do
    parts[#parts + 1] = (hover_text(item))
  end
  return table.concat(parts, '\n'), true
end

--- The target files of a Location, Location[] or LocationLink[] result.
local function definition_files(result)
  if type(result) ~= 'table' then
    return {}
  end
  if result.uri or result.targetUri then
    result = { result }
  end
  local files = {}
  for _, location in ipairs(result) do
    local uri = location.targetUri or location.uri
    if uri then
      files[#files + 1] = realpath(vim.uri_to_fname(uri))
    end
  end
  return files
end

--- Sends `method` until the answer satisfies `accept` or the time is up: a server may still be
--- indexing the first time it is asked, and answers empty then.
local function request_until(client_id, bufnr, method, params, accept)
  local deadline = now_ms() + TIMEOUT_MS
  local last = 'no answer within ' .. TIMEOUT_MS .. ' ms'
  repeat
    local responses = vim.lsp.buf_request_sync(bufnr, method, params, TIMEOUT_MS)
    local response = responses and responses[client_id]
    if response then
      local err = response.err or response.error
      if err then
        last = 'error ' .. vim.inspect(err, { newline = ' ', indent = '' })
      elseif accept(response.result) then
        return response.result
      else
        last = 'result ' .. vim.inspect(response.result, { newline = ' ', indent = '' })
      end
    end
    vim.wait(200)
  until now_ms() > deadline
  return nil, last
end

local function log_path()
  return (vim.lsp.log and vim.lsp.log.get_filename or vim.lsp.get_log_path)()
end

local function server_log_tail()
  local path = log_path()
  local lines = vim.fn.filereadable(path) == 1 and vim.fn.readfile(path) or {}
  return table.concat(vim.list_slice(lines, math.max(1, #lines - 30)), '\n')
end

local function run()
  local bin = os.getenv('SKILLGRAPH_BIN')
  assert(bin and bin ~= '', 'SKILLGRAPH_BIN is not set; run this through test/run.sh')

  -- The very file users install: its cmd (with the binary under test), filetypes, root markers,
  -- settings and before_init.
  local config = dofile(nvim_dir .. '/lsp/skillgraph.lua')
  local cmd = vim.deepcopy(config.cmd)
  assert(cmd[1] == 'skillgraph', 'lsp/skillgraph.lua cmd should start with skillgraph')
  cmd[1] = bin

  vim.cmd('filetype on')
  vim.cmd('edit ' .. vim.fn.fnameescape(topology))
  local bufnr = vim.api.nvim_get_current_buf()
  check(
    'the topology opens as a filetype the config attaches to',
    vim.tbl_contains(config.filetypes, vim.bo[bufnr].filetype),
    'filetype ' .. vim.bo[bufnr].filetype
  )

  local root = find_root(vim.fn.fnamemodify(topology, ':h'), config.root_markers)
  check('root_markers find the SwarmKit workspace', root == fixture, 'root ' .. tostring(root))
  root = root or fixture

  local start_config = {
    name = 'skillgraph',
    cmd = cmd,
    root_dir = root,
    settings = config.settings,
    before_init = config.before_init,
    on_attach = config.on_attach,
  }
  local client_id
  if vim.lsp.start then -- 0.8+: starts and attaches to the current buffer
    client_id = vim.lsp.start(start_config)
  else -- 0.7, as the README's setup for older versions does it
    client_id = vim.lsp.start_client(start_config)
    if client_id then
      vim.lsp.buf_attach_client(bufnr, client_id)
    end
  end
  assert(client_id, 'starting the client returned nil')

  -- Stops early when the server exits: the client is forgotten then.
  vim.wait(TIMEOUT_MS, function()
    local client = vim.lsp.get_client_by_id(client_id)
    return client == nil or client.initialized == true
  end, 50)
  local client = vim.lsp.get_client_by_id(client_id)
  if client == nil then
    error('the server exited before answering initialize')
  elseif not client.initialized then
    error('the server did not answer initialize within ' .. TIMEOUT_MS .. ' ms')
  end

  -- (a) diagnostics. Looked up by file rather than by buffer number, in case the server spells
  -- the URI differently from the buffer name (the test resolves symlinks, a server may not).
  local typo_line = find_text(bufnr, 'serach-code')
  local found
  vim.wait(TIMEOUT_MS, function()
    for _, d in ipairs(vim.diagnostic.get(nil)) do
      if d.code == 'agent.unknown-skill' and realpath(vim.api.nvim_buf_get_name(d.bufnr)) == topology then
        found = d
        return true
      end
    end
    return false
  end, 50)
  local seen = {}
  for _, d in ipairs(vim.diagnostic.get(nil)) do
    seen[#seen + 1] = string.format('%s:%d %s', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(d.bufnr), ':t'), d.lnum + 1, tostring(d.code))
  end
  check(
    'agent.unknown-skill is reported on topologies/hello.yaml',
    found ~= nil,
    'diagnostics seen: ' .. (#seen > 0 and table.concat(seen, ', ') or 'none')
  )
  if found then
    check(
      'the diagnostic is on the serach-code line',
      found.lnum == typo_line,
      string.format('line %d, expected %d', found.lnum + 1, typo_line + 1)
    )
  end

  -- (b) hover and (c) definition on the `say-hello` grant.
  local line, col = find_text(bufnr, '- say-hello')
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = line, character = col + 3 }, -- inside `say-hello`, ASCII so any encoding
  }

  -- Asking a server for a method it did not advertise only times out; say what is missing instead.
  local capabilities = client.server_capabilities or {}

  local hover, why = nil, 'the server does not advertise hoverProvider'
  if capabilities.hoverProvider then
    hover, why = request_until(client_id, bufnr, 'textDocument/hover', params, function(result)
      return type(result) == 'table'
        and result.contents ~= nil
        and (hover_text(result.contents)):find('say-hello', 1, true) ~= nil
    end)
  end
  check('hover on say-hello names the skill', hover ~= nil, why)
  if hover then
    local _, markdown = hover_text(hover.contents)
    check('the hover is markdown', markdown, 'contents ' .. vim.inspect(hover.contents, { newline = ' ', indent = '' }))
  end

  -- Omni completion: the config's on_attach sets 'omnifunc' to the LSP one, which finds where
  -- the word being typed starts and asks the server, whose answer for the grant names the skill.
  check(
    "on_attach sets 'omnifunc' so <C-x><C-o> completes",
    vim.bo[bufnr].omnifunc == 'v:lua.vim.lsp.omnifunc',
    "'omnifunc' is " .. vim.bo[bufnr].omnifunc
  )
  vim.api.nvim_win_set_cursor(0, { line + 1, col + 4 })
  -- 0.7-0.10 answer -2 ("go on, the items come asynchronously") and fill the menu when the
  -- server answers; newer versions return the column where the word starts.
  local start = vim.lsp.omnifunc(1, '')
  check('omnifunc sends the completion request', start == -2 or start == col + 2, 'start ' .. tostring(start))
  local items, why_no_items = request_until(client_id, bufnr, 'textDocument/completion', params, function(result)
    for _, item in ipairs(type(result) == 'table' and (result.items or result) or {}) do
      if item.label == 'say-hello' then
        return true
      end
    end
    return false
  end)
  check('completion on the grant offers say-hello', items ~= nil, why_no_items)

  -- Completion at a key of the child agent (`archetype:`): the keys an agent takes, from the
  -- bundled schema, each with its description.
  local key_line = nil
  for i, text in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if text:find('^%s+archetype: greeter') then
      key_line = i - 1
    end
  end
  local key_items, why_no_keys = nil, 'no `archetype: greeter` line in the fixture'
  if key_line then
    local key_params = {
      textDocument = params.textDocument,
      position = { line = key_line, character = 10 },
    }
    key_items, why_no_keys = request_until(client_id, bufnr, 'textDocument/completion', key_params, function(result)
      for _, item in ipairs(type(result) == 'table' and (result.items or result) or {}) do
        if item.label == 'funnel' and type(item.documentation) == 'table' then
          return true
        end
      end
      return false
    end)
  end
  check("completion at an agent's key offers funnel, documented", key_items ~= nil, why_no_keys)

  -- Rename of the grant: the server edits this file and the skill's own, and moves the skill's
  -- file with its id. Only this buffer's edits are applied (and undone), so the fixture on disk
  -- stays as it is.
  local rename_params = vim.deepcopy(params)
  rename_params.newName = 'greet-hello'
  local edit, why_no_edit = request_until(client_id, bufnr, 'textDocument/rename', rename_params, function(result)
    return type(result) == 'table' and (result.documentChanges ~= nil or result.changes ~= nil)
  end)
  check('rename of say-hello answers a workspace edit', edit ~= nil, why_no_edit)
  if edit then
    local here, moved = nil, false
    for _, change in ipairs(edit.documentChanges or {}) do
      if change.kind == 'rename' then
        moved = realpath(vim.uri_to_fname(change.oldUri)) == skill_file
      elseif realpath(vim.uri_to_fname(change.textDocument.uri)) == topology then
        here = change.edits
      end
    end
    if edit.changes then
      here = edit.changes[vim.uri_from_bufnr(bufnr)]
    end
    check('the rename moves skills/say-hello.yaml with its id', moved or edit.changes ~= nil)
    if here then
      local before = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
      vim.lsp.util.apply_text_edits(here, bufnr, client.offset_encoding or 'utf-16')
      local renamed = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1]
      check('the renamed grant reads greet-hello', renamed:find('- greet-hello', 1, true) ~= nil, renamed)
      vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, before)
    else
      check('the rename edits this buffer', false, vim.inspect(edit, { newline = ' ', indent = '' }))
    end
  end

  local definition, why_not = nil, 'the server does not advertise definitionProvider'
  if capabilities.definitionProvider then
    definition, why_not = request_until(client_id, bufnr, 'textDocument/definition', params, function(result)
      return vim.tbl_contains(definition_files(result), skill_file)
    end)
  end
  check('definition of say-hello is skills/say-hello.yaml', definition ~= nil, why_not)

  -- (d) the quick fix for the `serach-code` typo: offered, preferred, and applying its edit
  -- writes `search-code` in the buffer. The buffer is put back afterwards.
  local fix, why_no_fix = nil, 'the server does not advertise codeActionProvider'
  if capabilities.codeActionProvider then
    local fix_line = find_text(bufnr, 'serach-code')
    local action_params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = { start = { line = fix_line, character = 0 }, ['end'] = { line = fix_line, character = 0 } },
      context = { diagnostics = {} },
    }
    local actions
    actions, why_no_fix = request_until(client_id, bufnr, 'textDocument/codeAction', action_params, function(result)
      for _, action in ipairs(type(result) == 'table' and result or {}) do
        if action.title == 'Replace `serach-code` with `search-code`' then
          return true
        end
      end
      return false
    end)
    for _, action in ipairs(actions or {}) do
      if action.title == 'Replace `serach-code` with `search-code`' then
        fix = action
      end
    end
  end
  check('a quick fix replaces serach-code with search-code', fix ~= nil, why_no_fix)
  if fix then
    check('the quick fix is the preferred one', fix.isPreferred == true and fix.kind == 'quickfix')
    local before = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding or 'utf-16')
    local fixed_line = vim.api.nvim_buf_get_lines(bufnr, find_text(bufnr, 'search-code'), -1, false)[1]
    check(
      'applying the quick fix writes search-code',
      fixed_line:find('- search-code', 1, true) ~= nil and not table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n'):find('serach', 1, true),
      fixed_line
    )
    vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, before)
  end

  -- Shut the server down the polite way (shutdown, then exit) and give it a moment to go.
  vim.lsp.stop_client(client_id)
  vim.wait(3000, function()
    return vim.lsp.get_client_by_id(client_id) == nil
  end, 50)

  -- (d) No root at all, as the README's 0.7-0.10 setup starts the server when no marker is
  -- found: the server brings in the workspace around the opened file by itself, so hover on the
  -- grant still names the skill defined in another file.
  local rootless = vim.lsp.start_client({
    name = 'skillgraph-rootless',
    cmd = cmd,
    settings = config.settings,
    before_init = config.before_init,
  })
  assert(rootless, 'starting the root-less client returned nil')
  vim.lsp.buf_attach_client(bufnr, rootless)
  vim.wait(TIMEOUT_MS, function()
    local c = vim.lsp.get_client_by_id(rootless)
    return c == nil or c.initialized == true
  end, 50)
  local rootless_hover, why_rootless = request_until(rootless, bufnr, 'textDocument/hover', params, function(result)
    return type(result) == 'table'
      and result.contents ~= nil
      and (hover_text(result.contents)):find('say-hello', 1, true) ~= nil
      and (hover_text(result.contents)):find('skills/say-hello.yaml', 1, true) ~= nil
  end)
  check('with no root, hover on say-hello names the skill and its file', rootless_hover ~= nil, why_rootless)
  vim.lsp.stop_client(rootless)
  vim.wait(3000, function()
    return vim.lsp.get_client_by_id(rootless) == nil
  end, 50)
end

local ok, err = pcall(run)
if not ok then
  check('the test ran to the end', false, tostring(err))
end
if failed > 0 then
  say('--- last lines of ' .. log_path() .. ' (server stderr is logged there) ---')
  say(server_log_tail())
end
say(string.format('nvim: %d passed, %d failed', passed, failed))
if failed > 0 then
  vim.cmd('cquit 1')
else
  vim.cmd('qall!')
end
