-- Relay support for Neovim 0.7+: registers the tree-sitter parser built from
-- editors/tree-sitter-relay (compiling src/parser.c with the system C
-- compiler on first use, as nvim-treesitter does), highlights relay buffers with the
-- queries in queries/relay/, and starts `relay lsp` for them.
local M = {}

-- This file is <plugin>/lua/relay/init.lua; the grammar sits beside the plugin.
local plugin_root = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h:h:h")
local grammar_dir = vim.g.relay_grammar_dir or (plugin_root .. "/../tree-sitter-relay")

local function notify(msg, level)
  vim.notify("relay: " .. msg, level or vim.log.levels.WARN)
end

local function mtime(path)
  local st = vim.loop.fs_stat(path)
  return st and st.mtime.sec or nil
end

-- The parser library: vim.g.relay_parser if set, else a copy compiled into Neovim's data
-- directory, rebuilt when the committed parser.c is newer.
function M.parser_path()
  if vim.g.relay_parser then return vim.g.relay_parser end
  local out_dir = vim.fn.stdpath("data") .. "/relay"
  local so = out_dir .. "/relay.so"
  local src = grammar_dir .. "/src"
  local built, source = mtime(so), mtime(src .. "/parser.c")
  if built and (not source or built >= source) then return so end
  if not source then
    notify("no grammar at " .. grammar_dir .. " (set g:relay_grammar_dir or g:relay_parser)")
    return nil
  end
  vim.fn.mkdir(out_dir, "p")
  local cc = vim.env.CC or "cc"
  local cmd = { cc, "-shared", "-fPIC", "-O2", "-I", src, src .. "/parser.c", "-o", so }
  local output = vim.fn.system(cmd)
  if vim.v.shell_error ~= 0 then
    notify("could not compile the tree-sitter parser: " .. output, vim.log.levels.ERROR)
    return nil
  end
  return so
end

local registered = false
function M.register_parser()
  if registered then return true end
  local path = M.parser_path()
  if not path then return false end
  -- Neovim 0.9 renamed require_language to language.add (and later dropped the old name).
  local lang = vim.treesitter.language
  local ok, err
  if lang.add then
    ok, err = pcall(lang.add, "relay", { path = path })
  elseif lang.require_language then
    ok, err = pcall(lang.require_language, "relay", path)
  else
    ok, err = pcall(vim.treesitter.require_language, "relay", path)
  end
  if not ok then
    notify("could not load the tree-sitter parser: " .. tostring(err), vim.log.levels.ERROR)
    return false
  end
  registered = true
  return true
end

function M.start_highlighting(buf)
  if vim.g.relay_treesitter == false or not M.register_parser() then return false end
  if vim.treesitter.start then
    vim.treesitter.start(buf, "relay")  -- 0.8+
  else
    local parser = vim.treesitter.get_parser(buf, "relay")
    vim.treesitter.highlighter.new(parser)
  end
  return true
end

local client_id = nil
function M.start_lsp(buf)
  if vim.g.relay_lsp == false then return nil end
  local cmd = vim.g.relay_lsp_cmd or { "relay", "lsp" }
  if vim.fn.executable(cmd[1]) ~= 1 then
    notify("`" .. cmd[1] .. "` is not on PATH: no language server (set g:relay_lsp_cmd)")
    return nil
  end
  -- One server for every relay buffer of the session.
  if not client_id or not vim.lsp.get_client_by_id(client_id) then
    local file = vim.api.nvim_buf_get_name(buf)
    client_id = vim.lsp.start_client({
      name = "relay",
      cmd = cmd,
      root_dir = vim.fn.fnamemodify(file ~= "" and file or vim.fn.getcwd(), ":p:h"),
    })
  end
  if client_id then vim.lsp.buf_attach_client(buf, client_id) end
  return client_id
end

function M.attach(buf)
  vim.bo[buf].commentstring = "// %s"
  M.start_highlighting(buf)
  M.start_lsp(buf)
end

return M
