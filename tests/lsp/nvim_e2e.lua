-- End-to-end test with a real LSP client: headless Neovim 0.7 starts `relay lsp`, opens a
-- file with a type error, waits for the diagnostics, asks for hover, and prints what it
-- got (nvim_e2e.py asserts on the output).
local relay = os.getenv("RELAY_BIN")
local file = os.getenv("RELAY_FILE")
local function out(s) io.stdout:write(s .. "\n") end

vim.cmd("edit " .. file)
local buf = vim.api.nvim_get_current_buf()
local published = nil
local client_id = vim.lsp.start_client({
  name = "relay",
  cmd = { relay, "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
  handlers = {
    ["textDocument/publishDiagnostics"] = function(_, result) published = result end,
  },
})
vim.lsp.buf_attach_client(buf, client_id)
if not vim.wait(15000, function() return published ~= nil end, 20) then
  out("no diagnostics received")
  vim.cmd("cquit 1")
end
out("diagnostics: " .. #published.diagnostics)
for _, d in ipairs(published.diagnostics) do
  out(string.format("%s %d:%d %s", d.code, d.range.start.line, d.range.start.character, d.message:match("[^\n]*")))
end

local client = vim.lsp.get_client_by_id(client_id)
out("encoding: " .. (client.offset_encoding or "?"))
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 2, character = 3 } }
local resp = client.request_sync("textDocument/hover", params, 10000, buf)
if resp and resp.result then
  out("hover: " .. resp.result.contents.value:gsub("\n", "|"))
else
  out("hover: none (" .. vim.inspect(resp and resp.err) .. ")")
end
-- Completion after `%` in `add(%x, %y)`: the parameters in scope.
params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 2, character = 7 } }
resp = client.request_sync("textDocument/completion", params, 10000, buf)
if resp and resp.result then
  local items = resp.result.items or resp.result
  local labels = {}
  for _, item in ipairs(items) do
    if item.label:sub(1, 1) == "%" then table.insert(labels, item.label .. " " .. (item.detail or "")) end
  end
  table.sort(labels)
  out("completion: " .. table.concat(labels, " | "))
else
  out("completion: none (" .. vim.inspect(resp and resp.err) .. ")")
end
client.stop()
vim.wait(2000, function() return client.is_stopped() end, 20)
vim.cmd("qa!")
